import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SnapshotReader } from '../../core/reading/snapshot-reader.ts'
import { gateway, gatewayClass, httpRoute, namespace } from '../support/gateway-objects.ts'
import { request } from '../support/http-client.ts'
import { modified, startRuntimeCluster, type RuntimeCluster } from './runtime-cluster.ts'
import { answeredBy } from './serve-cluster.ts'
import { startServices, type ServiceBackends } from './service-backends.ts'

/**
 * A Gateway listener's `allowedRoutes.namespaces.from: Selector` through HAProxy, at runtime: a
 * label added to a Namespace attaches its routes (map edits, no reload), one removed detaches
 * them, and a label the selector does not read changes nothing; the route's report follows.
 */
describe('a Selector listener admits the routes of the Namespaces its labels select, at runtime', () => {
  let services: ServiceBackends
  let cluster: RuntimeCluster

  const get = (host: string) => request(`http://127.0.0.1:${cluster.httpPort}/`, { headers: { host } }).then(answeredBy)
  /** The route's report, as the committed snapshot holds it. */
  const reasonOf = (object: string) => new SnapshotReader(cluster.live.current.snapshot).rejections().find((rejection) => rejection.object === object)?.reason

  beforeAll(async () => {
    services = await startServices(['web'], 'shop')
    cluster = await startRuntimeCluster(
      [
        ...services.objects,
        gatewayClass(),
        gateway('edge', [{ name: 'http', from: 'Selector', selector: { matchExpressions: [{ key: 'team', operator: 'In', values: ['web', 'shop'] }] } }]),
        namespace('shop'),
        // The Service is served from the start through a listener that admits every namespace: attaching the other route is map edits alone.
        gateway('open', [{ name: 'http', from: 'All' }]),
        httpRoute({
          name: 'always',
          namespace: 'shop',
          hostnames: ['always.gw.test'],
          parents: [{ name: 'open', namespace: 'default' }],
          rules: [{ backends: [{ service: 'web' }] }],
        }),
        httpRoute({
          name: 'store',
          namespace: 'shop',
          hostnames: ['store.gw.test'],
          parents: [{ name: 'edge', namespace: 'default' }],
          rules: [{ backends: [{ service: 'web' }] }],
        }),
      ],
      'hapedge-gateway-namespaces',
    )
  })

  afterAll(async () => {
    await cluster?.stop()
    await services?.close()
  })

  it('a label added attaches the route, one removed detaches it, without a reload', async () => {
    const workers = await cluster.workers()
    expect(await get('store.gw.test')).toBe('HTTP 404')
    expect(reasonOf('HTTPRoute shop/store')).toContain('allowedRoutes.namespaces.selector does not select Namespace shop (NotAllowedByListeners)')

    await cluster.atRuntime([modified(namespace('shop', { team: 'web' }))])
    expect(await get('store.gw.test')).toBe('web')
    expect(reasonOf('HTTPRoute shop/store')).toBeUndefined()

    // A label the selector does not read: nothing to apply.
    const { agentPlan } = await cluster.atRuntime([modified(namespace('shop', { team: 'web', owner: 'ops' }))])
    expect(agentPlan.mapUpdates).toEqual([])
    expect(await get('store.gw.test')).toBe('web')

    await cluster.atRuntime([modified(namespace('shop', { owner: 'ops' }))])
    expect(await get('store.gw.test')).toBe('HTTP 404')
    expect(await cluster.workers()).toEqual(workers)
  })
})
