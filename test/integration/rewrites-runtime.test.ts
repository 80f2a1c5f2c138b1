import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FILES } from '../../core/render/files.ts'
import { request } from '../support/http-client.ts'
import { endpointSlice, ingress, service } from '../support/objects.ts'
import { modified, startRuntimeCluster, type RuntimeCluster } from './runtime-cluster.ts'

/**
 * A rewrite's target, its X-Forwarded-Prefix, and a use-regex path with its captures, changed, are
 * applied by the agent through the runtime API (map edits) as the engine plans them: no reload, the
 * same worker, and the next requests reach the loopback backend with the new path and header.
 */

const app = (annotations: Record<string, string>, path = '/app', pathType: 'Prefix' | 'ImplementationSpecific' = 'Prefix') =>
  ingress({ name: 'app', annotations, rules: [{ host: 'app.test', paths: [{ path, pathType, service: 'echo' }] }] })

describe('rewrites change at runtime', () => {
  let backend: Server
  let cluster: RuntimeCluster

  const received = async (path: string) => {
    const response = await request(`http://127.0.0.1:${cluster.httpPort}${path}`, { headers: { host: 'app.test' } })
    expect(response.status).toBe(200)
    return JSON.parse(response.body) as { url: string; prefix: string | null }
  }

  beforeAll(async () => {
    backend = createServer((req, res) => res.end(JSON.stringify({ url: req.url, prefix: req.headers['x-forwarded-prefix'] ?? null })))
    await new Promise<void>((resolve) => backend.listen(0, '127.0.0.1', resolve))
    const { port } = backend.address() as AddressInfo
    cluster = await startRuntimeCluster(
      [service('echo'), endpointSlice('echo', [{ address: '127.0.0.1', ready: true }], [{ port }]), app({ 'haproxy-ingress.github.io/rewrite-target': '/' })],
      'hapedge-rewrites-runtime',
    )
  })

  afterAll(async () => {
    await cluster?.stop()
    await new Promise((resolve) => backend?.close(resolve))
  })

  it('serves the first rewrite', async () => {
    expect(await received('/app/x?q=1')).toEqual({ url: '/x?q=1', prefix: null })
  })

  it('applies a new target and an X-Forwarded-Prefix with map edits, without a reload', async () => {
    const before = await cluster.workers()
    const { applied } = await cluster.atRuntime([
      modified(app({ 'haproxy-ingress.github.io/rewrite-target': '/v2/', 'nginx.ingress.kubernetes.io/x-forwarded-prefix': '/app' })),
    ])
    expect(applied.maps.map(({ name }) => name).sort()).toEqual([FILES.rewriteExactMap, FILES.rewritePrefixMap])
    expect(await received('/app/x?q=1')).toEqual({ url: '/v2/x?q=1', prefix: '/app' })
    expect(await cluster.workers()).toEqual(before)
  })

  it('applies a use-regex path and a target with captures with map edits, without a reload', async () => {
    const before = await cluster.workers()
    await cluster.atRuntime([modified(app({ 'nginx.ingress.kubernetes.io/rewrite-target': '/api/$2' }, '/shop(/|$)(.*)', 'ImplementationSpecific'))])
    expect(await received('/shop/cart/1')).toEqual({ url: '/api/cart/1', prefix: null })
    expect(await received('/shop')).toEqual({ url: '/api/', prefix: null })
    expect(await cluster.workers()).toEqual(before)
  })

  it('serves a regex route, then a changed expression and target, with map swaps, without a reload', async () => {
    const before = await cluster.workers()
    const { applied } = await cluster.atRuntime([
      modified(
        app({ 'nginx.org/path-regex': 'case_sensitive', 'nginx.org/rewrite-target': '/beverages/$1/$2' }, '/menu/([^/]+)/([^/]+)', 'ImplementationSpecific'),
      ),
    ])
    expect(applied.maps.map(({ name }) => name)).toEqual(expect.arrayContaining([FILES.pathRegexMap, FILES.rewriteRegexMap]))
    expect(await received('/menu/tea/green')).toEqual({ url: '/beverages/tea/green', prefix: null })
    await cluster.atRuntime([
      modified(
        app({ 'nginx.org/path-regex': 'case_sensitive', 'nginx.org/rewrite-target': '/drinks/$2' }, '/carte/([a-z]+)/([a-z]+)', 'ImplementationSpecific'),
      ),
    ])
    expect(await received('/carte/tea/green')).toEqual({ url: '/drinks/green', prefix: null })
    expect((await request(`http://127.0.0.1:${cluster.httpPort}/menu/tea/green`, { headers: { host: 'app.test' } })).status).toBe(404)
    expect(await cluster.workers()).toEqual(before)
  })
})
