import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { HttpResponse } from '../support/http-client.ts'
import { ingress } from '../support/objects.ts'
import { serveCluster, type ServedCluster } from './serve-cluster.ts'
import { startServices, type ServiceBackends } from './service-backends.ts'

/**
 * NGINX snippets translated through hapedge's vocabulary (core/annotations/nginx-snippet.ts), through
 * the real HAProxy, against a loopback backend that echoes the request headers it received (as JSON)
 * and answers with an `x-backend` header. A snippet outside the vocabulary is refused whole.
 */

const site = (name: string, host: string, annotations: Record<string, string>) =>
  ingress({ name, annotations, rules: [{ host, paths: [{ path: '/', pathType: 'Prefix', service: 'echo' }] }] })

const received = (response: HttpResponse): Record<string, string | string[] | undefined> => response.json().headers

/** Text a user could mean as configuration, in a header value: HAProxy's sample syntax, `%`, quotes. */
const HOSTILE = 'a %[env(HOME)] %% "q" \\ é'

describe('NGINX snippets through hapedge’s vocabulary', () => {
  let services: ServiceBackends
  let cluster: ServedCluster

  beforeAll(async () => {
    services = await startServices(['echo'])
    cluster = await serveCluster([
      ...services.objects,
      // The corpus's own (test/fixtures/corpus/013-ingress-nginx.yaml), and the id sent to the Service too.
      site('request-id', 'request-id.test', {
        'nginx.ingress.kubernetes.io/configuration-snippet': 'more_set_headers "Request-Id: $req_id";\nproxy_set_header X-Request-Id $req_id;',
      }),
      site('variables', 'variables.test', {
        'nginx.org/location-snippets': [
          'proxy_set_header X-Seen-Host $host;',
          'more_set_input_headers "X-Seen-Addr: ${remote_addr}";',
          'add_header X-Scheme $scheme always;',
          'add_header X-Host $host always;',
        ].join('\n'),
      }),
      site('literal', 'literal.test', {
        'nginx.ingress.kubernetes.io/configuration-snippet': [
          `more_set_headers 'X-Hostile: ${HOSTILE.replace(/\\/g, '\\\\')}' "X-Frame-Options: DENY";`,
          'more_clear_headers X-Backend;',
          'more_clear_input_headers Cookie;',
          'proxy_set_header X-Literal "two words";',
        ].join('\n'),
      }),
      // One directive outside the vocabulary refuses the whole snippet: none of its headers.
      site('outside', 'outside.test', {
        'nginx.ingress.kubernetes.io/configuration-snippet': 'more_set_headers "X-Half: applied";\nproxy_cache_valid 200 1m;',
      }),
      site('mixed', 'mixed.test', { 'nginx.ingress.kubernetes.io/configuration-snippet': 'proxy_set_header X-Mixed "id-$req_id";' }),
      // An access directive refuses the Ingress: its routes answer 503, never served open.
      site('access', 'access.test', { 'nginx.ingress.kubernetes.io/configuration-snippet': 'more_set_headers "X-A: a";\ndeny all;' }),
    ])
  })

  afterAll(async () => {
    await cluster?.stop()
    await services?.close()
  })

  it('gives each request one unique id of 32 hex digits, as NGINX’s $req_id: on the answer and to the Service alike', async () => {
    const first = await cluster.get('request-id.test', '/')
    const second = await cluster.get('request-id.test', '/')
    const id = first.headers['request-id']
    expect(id).toMatch(/^[0-9a-f]{32}$/)
    expect(received(first)['x-request-id']).toBe(id)
    expect(second.headers['request-id']).toMatch(/^[0-9a-f]{32}$/)
    expect(second.headers['request-id']).not.toBe(id)
    expect(cluster.files.get('10-frontend.cfg')).toContain('unique-id-format')
  })

  it('fills $host, $remote_addr and $scheme from the request, on requests and answers', async () => {
    const response = await cluster.get('variables.test', '/', { headers: { 'x-seen-host': 'client', 'x-seen-addr': '203.0.113.9' } })
    expect(received(response)).toMatchObject({ 'x-seen-host': 'variables.test', 'x-seen-addr': '127.0.0.1' })
    expect(response.headers).toMatchObject({ 'x-scheme': 'http', 'x-host': 'variables.test' })
  })

  it('sends literal values byte for byte, never read as configuration, and clears headers both ways', async () => {
    const response = await cluster.get('literal.test', '/', { headers: { cookie: 'a=b', 'x-kept': 'yes' } })
    expect(response.status).toBe(200)
    expect(Buffer.from(response.headers['x-hostile'] as string, 'latin1').toString('utf8')).toBe(HOSTILE)
    expect(response.headers['x-frame-options']).toBe('DENY')
    expect(response.headers).not.toHaveProperty('x-backend')
    expect(received(response)).toMatchObject({ 'x-literal': 'two words', 'x-kept': 'yes' })
    expect(received(response)).not.toHaveProperty('cookie')
  })

  it('refuses a snippet with a directive or a value outside the vocabulary whole, naming the directive, and serves the route without it', async () => {
    const outside = await cluster.get('outside.test', '/')
    expect(outside.status).toBe(200)
    expect(outside.headers).not.toHaveProperty('x-half')
    const mixed = await cluster.get('mixed.test', '/')
    expect(received(mixed)).not.toHaveProperty('x-mixed')
    const warned = (name: string) => cluster.model.warnings.filter((warning) => warning.object === `Ingress default/${name}`)
    expect(warned('outside')).toEqual([
      {
        object: 'Ingress default/outside',
        annotation: 'nginx.ingress.kubernetes.io/configuration-snippet',
        reason: expect.stringContaining('directive 2 (line 2, "proxy_cache_valid") is not in hapedge\'s vocabulary'),
      },
    ])
    expect(warned('mixed')).toEqual([expect.objectContaining({ reason: expect.stringContaining('mixes text and variables') })])
  })

  it('refuses the Ingress of a snippet with an access directive: 503, never served open', async () => {
    const response = await cluster.get('access.test', '/')
    expect(response.status).toBe(503)
    expect(response.headers).not.toHaveProperty('x-a')
    expect(cluster.model.rejections).toContainEqual({ object: 'Ingress default/access', reason: expect.stringContaining('(deny)') })
  })

  it('has no other warnings: the snippets of the vocabulary are honoured as written', () => {
    expect(cluster.model.warnings.filter((warning) => !['Ingress default/outside', 'Ingress default/mixed'].includes(warning.object))).toEqual([])
  })
})
