import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { endpointSlice, ingress, service } from '../support/objects.ts'
import { serveCluster, type ServedCluster } from './serve-cluster.ts'

/**
 * rewrite-target (prefix replacement and use-regex captures) and x-forwarded-prefix through the
 * real HAProxy, against one loopback backend that answers with the path, query and
 * X-Forwarded-Prefix it received.
 */

function echoBackend(): Promise<Server> {
  const server = createServer((request, response) => {
    response.setHeader('content-type', 'application/json')
    response.end(JSON.stringify({ url: request.url, prefix: request.headers['x-forwarded-prefix'] ?? null }))
  })
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)))
}

/** A routable path first, then what must never be routed nor reach HAProxy's configuration (regex routes that are served: regex-paths.test.ts). */
const HOSTILE_PATHS = ['/ok(/|$)(.*)', '/(a+)+$', '/c\\1(.*)', '/d(?{1})', '/e)|(.*)', '/f(?=x)', '/g(?i)x']

type PathSpec = { path: string; pathType?: 'Prefix' | 'Exact' | 'ImplementationSpecific' }

describe('rewrites', () => {
  let backend: Server
  let cluster: ServedCluster

  beforeAll(async () => {
    backend = await echoBackend()
    const { port } = backend.address() as AddressInfo
    const site = (name: string, host: string, annotations: Record<string, string>, paths: PathSpec[] = [{ path: '/app' }]) =>
      ingress({ name, annotations, rules: [{ host, paths: paths.map(({ path, pathType = 'Prefix' }) => ({ path, pathType, service: 'echo' })) }] })
    cluster = await serveCluster([
      service('echo'),
      endpointSlice('echo', [{ address: '127.0.0.1', ready: true }], [{ port }]),
      site('prefix', 'prefix.test', { 'haproxy-ingress.github.io/rewrite-target': '/' }),
      site('nested', 'nested.test', { 'nginx.org/rewrite-target': '/v2/api/' }, [{ path: '/app' }, { path: '/exact', pathType: 'Exact' }]),
      site('nginx-prefix', 'nginx-prefix.test', {
        'nginx.ingress.kubernetes.io/rewrite-target': '/',
        'nginx.ingress.kubernetes.io/x-forwarded-prefix': '/app',
      }),
      site('captures', 'captures.test', { 'nginx.ingress.kubernetes.io/rewrite-target': '/$2' }, [
        { path: '/app(/|$)(.*)', pathType: 'ImplementationSpecific' },
      ]),
      site('both', 'both.test', { 'nginx.ingress.kubernetes.io/use-regex': 'true', 'nginx.ingress.kubernetes.io/rewrite-target': '/base$1$2/end' }, [
        { path: '/app(/|$)(.*)' },
      ]),
      site('root', 'root.test', { 'hapedge.io/use-regex': 'true', 'hapedge.io/rewrite-target': '/static/$1' }, [{ path: '/(.*)' }]),
      site('nginx-inc', 'nginx-inc.test', { 'nginx.org/path-regex': 'case_sensitive', 'nginx.org/rewrite-target': '/beverages/$1' }, [{ path: '/tea/(.*)' }]),
      // Regular expressions hapedge cannot route, and text meant to reach the configuration: refused path by path, the rest served.
      site(
        'hostile',
        'hostile.test',
        { 'nginx.ingress.kubernetes.io/rewrite-target': '/$2' },
        HOSTILE_PATHS.map((path) => ({ path })),
      ),
      // Another Ingress's longer path on a rewriting host is sent as it came.
      ingress({ name: 'plain', rules: [{ host: 'prefix.test', paths: [{ path: '/app/keep', pathType: 'Prefix', service: 'echo' }] }] }),
    ])
  })

  afterAll(async () => {
    await cluster?.stop()
    await new Promise((resolve) => backend?.close(resolve))
  })

  const received = async (host: string, path: string) => {
    const response = await cluster.get(host, path)
    expect(response.status).toBe(200)
    return JSON.parse(response.body) as { url: string; prefix: string | null }
  }
  const urls = async (host: string, paths: string[]) => Promise.all(paths.map(async (path) => (await received(host, path)).url))

  it('replaces the prefix: /app → /, /app/x → /x, the query kept; another Ingress’s longer path is not rewritten', async () => {
    expect(await urls('prefix.test', ['/app', '/app/', '/app/x', '/app/x/y?q=1&r=%2F', '/app/keep/z'])).toEqual([
      '/',
      '/',
      '/x',
      '/x/y?q=1&r=%2F',
      '/app/keep/z',
    ])
    expect(await urls('nested.test', ['/app', '/app/', '/app/x?q', '/exact'])).toEqual(['/v2/api', '/v2/api/', '/v2/api/x?q', '/v2/api'])
  })

  it('rewrites with the capture groups of ingress-nginx’s /app(/|$)(.*), which rewrite-target alone makes a regular expression', async () => {
    expect(await urls('captures.test', ['/app', '/app/', '/app/x/y?q=1'])).toEqual(['/', '/', '/x/y?q=1'])
    expect(await urls('both.test', ['/app', '/app/x'])).toEqual(['/base/end', '/base/x/end'])
    expect(await urls('root.test', ['/', '/a/b?c'])).toEqual(['/static/', '/static/a/b?c'])
    expect(await urls('nginx-inc.test', ['/tea/green'])).toEqual(['/beverages/green'])
  })

  it('sets X-Forwarded-Prefix on the rewritten requests of the Ingress that asks for it, and on no other', async () => {
    expect(await received('nginx-prefix.test', '/app/x')).toEqual({ url: '/x', prefix: '/app' })
    expect(await received('prefix.test', '/app/x')).toEqual({ url: '/x', prefix: null })
  })

  it('serves a hostile Ingress’s routable path and refuses each other path by name, none of them reaching the configuration', async () => {
    expect(await urls('hostile.test', ['/ok/x'])).toEqual(['/x'])
    for (const path of ['/aaa', '/e', '/fx', '/gx']) expect((await cluster.get('hostile.test', path)).status).toBe(404)
    const refused = cluster.model.rejections.filter((rejection) => rejection.object === 'Ingress default/hostile').map((rejection) => rejection.reason)
    expect(refused).toHaveLength(HOSTILE_PATHS.length - 1)
    HOSTILE_PATHS.slice(1).forEach((path, i) => {
      expect(refused[i]).toContain(`spec.rules[0].http.paths[${i + 1}].path: the regular expression path ${JSON.stringify(path)} is not served`)
      expect(refused[i]).toContain('nginx.ingress.kubernetes.io/rewrite-target')
    })
    const configuration = [...cluster.files.values()].join('')
    for (const text of ['(a+)+', '(?{', 'e)|(', 'c\\1', '(?=x)', '(?i)x']) expect(configuration).not.toContain(text)
  })

  it('honours every rewrite key asked for here, warning only that /tea/(.*) serves /tea itself too', () => {
    expect(cluster.model.warnings).toEqual([
      {
        object: 'Ingress default/nginx-inc',
        annotation: 'nginx.org/path-regex',
        reason: 'spec.rules[0].http.paths[0].path "/tea/(.*)" is served as the Prefix path /tea, which serves /tea itself too',
      },
    ])
    expect(cluster.model.rejections.filter((rejection) => rejection.object !== 'Ingress default/hostile')).toEqual([])
  })
})
