import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { HttpResponse } from '../support/http-client.ts'
import { configMap, ingress } from '../support/objects.ts'
import { serveCluster, type ServedCluster } from './serve-cluster.ts'
import { startServices, type ServiceBackends } from './service-backends.ts'

/**
 * Request and response headers per Ingress through the real HAProxy, against a loopback backend
 * that echoes the request headers it received (as JSON) and answers with an `x-backend` header.
 */

/** Values a user could mean as configuration: HAProxy's sample syntax, quotes, `;`, `#`, `%`, and bytes beyond ASCII. */
const HOSTILE = 'a b %[env(HOME)] %% "quoted" \'single\' ; # \\ é'

const site = (name: string, host: string, annotations: Record<string, string>, path = '/') =>
  ingress({ name, annotations, rules: [{ host, paths: [{ path, pathType: 'Prefix', service: 'echo' }] }] })

/** What the backend received: its request headers, lowercase names. */
const received = (response: HttpResponse): Record<string, string | string[] | undefined> => response.json().headers

describe('request and response headers per Ingress', () => {
  let services: ServiceBackends
  let cluster: ServedCluster

  beforeAll(async () => {
    services = await startServices(['echo'])
    cluster = await serveCluster([
      ...services.objects,
      site('canonical', 'canonical.test', {
        'hapedge.io/request-set-header': `X-Set ${HOSTILE}\nX-Replaced new`,
        'hapedge.io/request-add-header': 'X-Added one\nX-Added two',
        'hapedge.io/request-del-header': 'X-Secret, Authorization',
        'hapedge.io/response-set-header': 'Cache-Control: no-store, max-age=0',
        'hapedge.io/response-add-header': 'X-Response-Added yes',
        'hapedge.io/response-del-header': 'X-Backend',
      }),
      // Another Ingress's longer path on that host: none of the first Ingress's headers.
      site('plain', 'canonical.test', {}, '/plain'),
      site('haproxytech', 'haproxytech.test', {
        'haproxy.org/request-set-header': 'X-Tech "tech value"',
        'haproxy.org/response-set-header': 'X-Tech-Response done',
      }),
      site('haproxy-ingress', 'haproxy-ingress.test', { 'haproxy-ingress.github.io/headers': 'x-hi: from haproxy-ingress' }),
      site('nginx-inc', 'nginx-inc.test', { 'nginx.org/proxy-set-headers': 'X-Nginx: nginx value', 'nginx.org/proxy-hide-headers': 'x-backend' }),
      // A CR LF in a value would end the map line and start a rule: it is no header line at all, and the whole annotation is ignored with a warning.
      site('hostile', 'hostile.test', { 'nginx.org/proxy-set-headers': 'X-Evil: x\r\nhttp-request deny' }),
      site('refused', 'refused.test', {
        'hapedge.io/request-set-header': 'Host evil.test\nX-Forwarded-For 203.0.113.9\nX-Hapedge-Refused no\nX-Kept kept',
        'hapedge.io/request-del-header': 'Connection',
        'hapedge.io/response-set-header': 'Content-Length 0',
      }),
    ])
  })

  afterAll(async () => {
    await cluster?.stop()
    await services?.close()
  })

  it('sets, adds and removes request headers, the values sent byte for byte as written, never read as configuration', async () => {
    const response = await cluster.get('canonical.test', '/x', {
      headers: { 'x-replaced': 'old', 'x-added': 'client', 'x-secret': 'hidden', authorization: 'Basic dTpw', 'x-client': 'kept' },
    })
    expect(response.status).toBe(200)
    const headers = received(response)
    expect(Buffer.from(headers['x-set'] as string, 'latin1').toString('utf8')).toBe(HOSTILE)
    expect(headers['x-replaced']).toBe('new')
    expect(headers['x-added']).toBe('client, one, two')
    expect(headers).not.toHaveProperty('x-secret')
    expect(headers).not.toHaveProperty('authorization')
    expect(headers['x-client']).toBe('kept')
  })

  it('sets, adds and removes response headers of the Service’s answers', async () => {
    const response = await cluster.get('canonical.test', '/x')
    expect(response.headers['cache-control']).toBe('no-store, max-age=0')
    expect(response.headers['x-response-added']).toBe('yes')
    expect(response.headers).not.toHaveProperty('x-backend')
  })

  it('leaves another Ingress’s routes on the same host, and other hosts, as they were', async () => {
    const other = await cluster.get('canonical.test', '/plain/x', { headers: { 'x-secret': 'hidden' } })
    expect(received(other)).toMatchObject({ 'x-secret': 'hidden' })
    expect(received(other)).not.toHaveProperty('x-set')
    expect(other.headers['x-backend']).toBe('echo')
    expect(other.headers).not.toHaveProperty('x-response-added')
    const elsewhere = await cluster.get('haproxytech.test', '/')
    expect(received(elsewhere)).not.toHaveProperty('x-set')
  })

  it('reads the other controllers’ spellings: haproxy.org, haproxy-ingress headers, nginx.org proxy-set/hide-headers', async () => {
    const tech = await cluster.get('haproxytech.test', '/')
    expect(received(tech)['x-tech']).toBe('tech value')
    expect(tech.headers['x-tech-response']).toBe('done')
    expect(received(await cluster.get('haproxy-ingress.test', '/'))['x-hi']).toBe('from haproxy-ingress')
    const nginx = await cluster.get('nginx-inc.test', '/')
    expect(received(nginx)['x-nginx']).toBe('nginx value')
    expect(nginx.headers).not.toHaveProperty('x-backend')
  })

  it('ignores a value with a line break, with a warning, and serves the route', async () => {
    const response = await cluster.get('hostile.test', '/')
    expect(response.status).toBe(200)
    expect(received(response)).not.toHaveProperty('x-evil')
    expect(cluster.model.warnings.filter((warning) => warning.object === 'Ingress default/hostile')).toMatchObject([
      { annotation: 'nginx.org/proxy-set-headers', reason: expect.stringContaining('control characters') },
    ])
  })

  it('refuses, with a warning each, the headers hapedge routes by or the Services trust, hop-by-hop and hapedge’s own; the rest is honoured', async () => {
    const response = await cluster.get('refused.test', '/', { headers: { 'x-forwarded-for': '198.51.100.1' } })
    expect(response.status).toBe(200)
    const headers = received(response)
    expect(headers.host).toBe('refused.test')
    expect(headers['x-forwarded-for']).not.toContain('203.0.113.9')
    expect(headers).not.toHaveProperty('x-hapedge-refused')
    expect(headers['x-kept']).toBe('kept')
    const reasons = cluster.model.warnings.filter((warning) => warning.object === 'Ingress default/refused').map((warning) => warning.reason)
    expect(reasons).toHaveLength(5)
    for (const name of ['host', 'x-forwarded-for', 'x-hapedge-refused', 'connection', 'content-length']) expect(reasons.join('\n')).toContain(`"${name}"`)
  })

  it('has no other warnings', () => {
    expect(cluster.model.warnings.filter((warning) => !['Ingress default/hostile', 'Ingress default/refused'].includes(warning.object))).toEqual([])
  })

  it('never passes on a client’s own X-Forwarded-For: the Service gets only the address hapedge saw', async () => {
    const response = await cluster.get('refused.test', '/', { headers: { 'x-forwarded-for': '198.51.100.1' } })
    expect(received(response)['x-forwarded-for']).toBe('127.0.0.1')
  })

  it('keeps a trusted proxy’s X-Forwarded-For (use-forwarded-headers, proxy-real-ip-cidr), its last entry the client, and adds the proxy, not the client again', async () => {
    const behindProxy = await serveCluster([
      ...services.objects,
      configMap({ 'use-forwarded-headers': 'true', 'proxy-real-ip-cidr': '127.0.0.1/32' }),
      site('plain', 'plain.test', {}),
    ])
    try {
      const response = await behindProxy.get('plain.test', '/', { headers: { 'x-forwarded-for': '198.51.100.1, 203.0.113.7' } })
      expect(received(response)['x-forwarded-for']).toBe('198.51.100.1, 203.0.113.7, 127.0.0.1')
      const direct = await behindProxy.get('plain.test', '/')
      expect(received(direct)['x-forwarded-for']).toBe('127.0.0.1')
    } finally {
      await behindProxy.stop()
    }
  })
})
