import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { gateway, gatewayClass, httpRoute } from '../support/gateway-objects.ts'
import { ingress } from '../support/objects.ts'
import { answeredBy, serveCluster, type ServedCluster } from './serve-cluster.ts'
import { startServices, type ServiceBackends } from './service-backends.ts'

/**
 * The Gateway API's wildcard hostname through HAProxy: `*.gw.test` matches names of any number of
 * labels (never `gw.test`), the exact name first, then the longest wildcard suffix; an Ingress's
 * wildcard still matches one label, and where an Ingress and an HTTPRoute share a wildcard, its
 * names of more than one label are not served, and the HTTPRoute is told so.
 */
describe('Gateway API wildcard hostnames through HAProxy', () => {
  let services: ServiceBackends
  let cluster: ServedCluster

  beforeAll(async () => {
    services = await startServices(['wide', 'deep', 'exact', 'ingress', 'shared'])
    const route = (name: string, hostnames: string[], service: string, path = '/') =>
      httpRoute({ name, hostnames, rules: [{ matches: [{ value: path }], backends: [{ service }] }] })
    cluster = await serveCluster([
      ...services.objects,
      gatewayClass(),
      gateway('edge', [{ name: 'web' }]),
      route('wide', ['*.gw.test'], 'wide'),
      route('deep', ['*.deep.gw.test'], 'deep'),
      route('exact', ['exact.deep.gw.test'], 'exact'),
      ingress({ name: 'ingress', rules: [{ host: '*.ing.test', paths: [{ path: '/', service: 'ingress' }] }] }),
      ingress({ name: 'shared-ingress', rules: [{ host: '*.shared.test', paths: [{ path: '/', service: 'ingress' }] }] }),
      route('shared', ['*.shared.test'], 'shared', '/gw'),
    ])
  })

  afterAll(async () => {
    await cluster?.stop()
    await services?.close()
  })

  const get = (host: string, path = '/') => cluster.get(host, path).then(answeredBy)

  it('a wildcard serves names of one label and of more, never its own suffix', async () => {
    expect(await get('a.gw.test')).toBe('wide')
    expect(await get('a.b.gw.test')).toBe('wide')
    expect(await get('x.y.z.gw.test:8080')).toBe('wide')
    expect(await get('gw.test')).toBe('HTTP 404')
    expect(await get('a.b.gw.test.other')).toBe('HTTP 404')
  })

  it('the exact name first, then the longest wildcard suffix', async () => {
    expect(await get('exact.deep.gw.test')).toBe('exact')
    expect(await get('a.deep.gw.test')).toBe('deep')
    expect(await get('a.b.deep.gw.test')).toBe('deep')
    expect(await get('deep.gw.test')).toBe('wide')
  })

  it("an Ingress's wildcard still matches one label", async () => {
    expect(await get('a.ing.test')).toBe('ingress')
    expect(await get('a.b.ing.test')).toBe('HTTP 404')
  })

  it('a wildcard an Ingress shares serves one label to both, and the HTTPRoute is told that longer names are not served', async () => {
    expect(await get('a.shared.test', '/gw')).toBe('shared')
    expect(await get('a.shared.test', '/')).toBe('ingress')
    expect(await get('a.b.shared.test', '/gw')).toBe('HTTP 404')
    const reasons = new Map(cluster.model.rejections.map((rejection) => [rejection.object, rejection.reason]))
    expect(reasons.get('HTTPRoute default/shared')).toBe(
      'host "*.shared.test" is also named by Ingress default/shared-ingress, whose wildcard matches one label: names of more than one label under it are not served by this HTTPRoute',
    )
  })
})
