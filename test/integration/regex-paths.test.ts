import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FILES } from '../../core/render/files.ts'
import { endpointSlice, ingress, service } from '../support/objects.ts'
import { serveCluster, type ServedCluster } from './serve-cluster.ts'

/**
 * use-regex paths that are no Prefix form, served through the regular-expression route map by the
 * real HAProxy: anchored at the start of the path as ingress-nginx's `~* ^path`, case-insensitive
 * unless asked otherwise, the longest expression first, after Exact paths (and Prefix paths' own
 * paths) and before longer prefixes; rewrite-target filled from their groups. Each loopback
 * backend answers with its name and the path it received.
 */

function echoBackend(name: string): Promise<Server> {
  const server = createServer((request, response) => {
    response.setHeader('content-type', 'application/json')
    response.end(JSON.stringify({ name, url: request.url }))
  })
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)))
}

type PathSpec = { path: string; pathType?: 'Prefix' | 'Exact' | 'ImplementationSpecific'; service: string }

describe('regular-expression paths', () => {
  const names = ['coffee', 'versions', 'admin', 'exact', 'special', 'fallback'] as const
  const backends = new Map<string, Server>()
  let cluster: ServedCluster

  beforeAll(async () => {
    for (const name of names) backends.set(name, await echoBackend(name))
    const site = (name: string, host: string, annotations: Record<string, string>, paths: PathSpec[]) =>
      ingress({
        name,
        annotations,
        rules: [{ host, paths: paths.map(({ path, pathType = 'ImplementationSpecific', service }) => ({ path, pathType, service })) }],
      })
    cluster = await serveCluster([
      ...names.flatMap((name) => {
        const { port } = backends.get(name)!.address() as AddressInfo
        return [service(name), endpointSlice(name, [{ address: '127.0.0.1', ready: true }], [{ port }])]
      }),
      // The real-world corpus's NGINX Inc. example.
      site('cafe', 'cafe.test', { 'nginx.org/path-regex': 'case_sensitive', 'nginx.org/rewrite-target': '/beverages/$1/$2' }, [
        { path: '/menu/([^/]+)/([^/]+)', service: 'coffee' },
      ]),
      site('api', 'api.test', { 'nginx.ingress.kubernetes.io/use-regex': 'true' }, [
        { path: '/api/v[0-9]+', service: 'versions' },
        { path: '/api/v[0-9]+/admin', service: 'admin' },
        { path: '/', service: 'fallback' },
      ]),
      // Text meant for HAProxy's configuration, read as a regular expression: a quote, and `%[…]` as a class.
      site('quoted', 'quoted.test', { 'hapedge.io/use-regex': 'true' }, [{ path: '/b"x%[env(HOME)]', service: 'coffee' }]),
      site('api-exact', 'api.test', {}, [
        { path: '/api/v1', pathType: 'Exact', service: 'exact' },
        { path: '/api/v2/special', pathType: 'Prefix', service: 'special' },
      ]),
    ])
  })

  afterAll(async () => {
    await cluster?.stop()
    for (const server of backends.values()) await new Promise((resolve) => server.close(resolve))
  })

  const answer = async (host: string, path: string) => {
    const response = await cluster.get(host, path)
    return response.status === 200 ? (JSON.parse(response.body) as { name: string; url: string }) : response.status
  }

  it('serves the corpus’s /menu/([^/]+)/([^/]+), rewritten to /beverages/$1/$2, case-sensitively as path-regex: case_sensitive asks', async () => {
    expect(await answer('cafe.test', '/menu/tea/green?x=1')).toEqual({ name: 'coffee', url: '/beverages/tea/green?x=1' })
    expect(await answer('cafe.test', '/menu/tea/green/more')).toEqual({ name: 'coffee', url: '/beverages/tea/green' })
    expect(await answer('cafe.test', '/menu/tea')).toBe(404)
    expect(await answer('cafe.test', '/MENU/tea/green')).toBe(404)
    expect(await answer('cafe.test', '/x/menu/tea/green')).toBe(404)
  })

  it('anchors at the start of the path, case-insensitively for ingress-nginx, the longest expression first', async () => {
    expect(await answer('api.test', '/api/v3')).toEqual({ name: 'versions', url: '/api/v3' })
    expect(await answer('api.test', '/API/V3/x')).toEqual({ name: 'versions', url: '/API/V3/x' })
    expect(await answer('api.test', '/api/v3/admin/users')).toEqual({ name: 'admin', url: '/api/v3/admin/users' })
    expect(await answer('api.test', '/api/vx')).toEqual({ name: 'fallback', url: '/api/vx' })
  })

  it('lets Exact paths and a Prefix path’s own path win, and takes requests below a Prefix path', async () => {
    expect(await answer('api.test', '/api/v1')).toEqual({ name: 'exact', url: '/api/v1' })
    expect(await answer('api.test', '/api/v2/special')).toEqual({ name: 'special', url: '/api/v2/special' })
    expect(await answer('api.test', '/api/v2/special/x')).toEqual({ name: 'versions', url: '/api/v2/special/x' })
  })

  it('keeps the expressions in the route map, normalised, and never in the configuration', () => {
    expect(cluster.files.get(FILES.pathRegexMap)).toContain('(?:/menu/([^\\/]+)/([^\\/]+)) cafe.test~/menu/([^\\/]+)/([^\\/]+)')
    const configuration = [...cluster.files]
      .filter(([path]) => path.endsWith('.cfg'))
      .map(([, text]) => text)
      .join('')
    expect(configuration).not.toContain('v[0-9]')
    expect(configuration).not.toContain('menu')
    expect(configuration).not.toContain('env')
    expect(cluster.files.get(FILES.pathRegexMap)).toContain('(?:(?i)/b\\"x%[env\\(HOME\\)]) quoted.test~(?i)/b\\"x%[env\\(HOME\\)]')
    expect(cluster.model.rejections).toEqual([])
  })
})
