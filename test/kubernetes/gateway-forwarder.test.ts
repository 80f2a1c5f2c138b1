import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { app } from '../support/contracts/cluster-apps.ts'
import { eventually } from '../support/eventually.ts'
import { gateway, httpRoute } from '../support/gateway-objects.ts'
import { fixtureSecret, startForwardHarness, type ForwardHarness } from './forward-harness.ts'

const keys = (objects: { kind?: string; metadata?: { namespace?: string; name?: string } }[], kind: string) =>
  objects.filter((object) => object.kind === kind).map((object) => `${object.metadata?.namespace}/${object.metadata?.name}`)

describe('hapedge forward and the Gateway API', () => {
  let world: ForwardHarness
  beforeEach(async () => {
    world = await startForwardHarness()
  })
  afterEach(async () => {
    await world?.stop()
  })

  it('a cluster without the Gateway API’s CRDs is no error: their kinds are listed as none, said once, and the rest is forwarded', async () => {
    for (const object of app(1)) world.double.put(object)
    await world.startForwarder()
    await world.converged()
    expect(world.log.filter((line) => line.includes('its CRD is not installed')).map((line) => line.split(':')[0])).toEqual([
      'GatewayClass',
      'Gateway',
      'HTTPRoute',
      'GRPCRoute',
      'ReferenceGrant',
    ])
    expect(world.received[0]).toMatchObject({ method: 'PUT', status: 200 })
  })

  it('lists and watches Gateways and HTTPRoutes, and sends the Secrets a Gateway’s HTTPS listeners name (of another namespace too), not another', async () => {
    for (const object of app(1)) world.double.put(object)
    world.double.put(gateway('edge', [{ name: 'https', protocol: 'HTTPS', hostname: 'shop.example.com', certificate: 'edge-tls' }]))
    // A Secret of another namespace: the engine serves it while a ReferenceGrant there permits it.
    world.double.put(
      gateway('web', [{ name: 'https', protocol: 'HTTPS', hostname: 'site.example.com', certificate: 'site-tls', certificateNamespace: 'certs' }], {
        namespace: 'infra',
      }),
    )
    world.double.put(fixtureSecret('edge-tls'))
    world.double.put(fixtureSecret('site-tls', 'certs'))
    world.double.put(fixtureSecret('unused-tls'))
    world.double.put(fixtureSecret('unused-tls', 'certs'))
    world.double.put(httpRoute({ name: 'shop', rules: [{ backends: [{ service: 'app-1' }] }] }))
    await world.startForwarder()
    await world.converged()
    const items = world.received[0]!.body.items!
    expect([keys(items, 'Gateway'), keys(items, 'HTTPRoute'), keys(items, 'Secret')]).toEqual([
      ['default/edge', 'infra/web'],
      ['default/shop'],
      ['certs/site-tls', 'default/edge-tls'],
    ])
    // A watched change: a second route.
    world.double.put(httpRoute({ name: 'more', rules: [{ backends: [{ service: 'app-1' }] }] }))
    await eventually('the watched HTTPRoute to be sent', () => keys(world.sentObjects(), 'HTTPRoute').includes('default/more') || undefined)
  })

  it('does not send a change of status alone (a status write coming back), and sends the next change of the object', async () => {
    for (const object of app(1)) world.double.put(object)
    const shop = httpRoute({ name: 'shop', rules: [{ backends: [{ service: 'app-1' }] }] })
    world.double.put(shop)
    await world.startForwarder()
    await world.converged()
    const parents = [{ parentRef: { name: 'edge' }, controllerName: 'hapedge.io/gateway-controller', conditions: [] }]
    world.double.put({ ...shop, status: { parents } })
    // A marker after it on another watch: once it is sent, the status change was seen and not sent.
    world.double.put(httpRoute({ name: 'more', rules: [{ backends: [{ service: 'app-1' }] }] }))
    await eventually('the marker HTTPRoute to be sent', () => keys(world.sentObjects(), 'HTTPRoute').includes('default/more') || undefined)
    const sentShop = () =>
      world.received
        .slice(1)
        .flatMap((write) => (write.body.events ?? []).map((event) => event.object))
        .filter((object) => object.metadata?.name === 'shop')
    expect(sentShop()).toEqual([])
    // The route's own change is sent, carrying its status as read.
    const changed = httpRoute({ name: 'shop', rules: [{ backends: [{ service: 'app-2' }] }] })
    world.double.put({ ...changed, status: { parents } })
    await eventually('the route’s change to be sent', () => sentShop().length > 0 || undefined)
    expect(sentShop().map((object) => object.metadata?.resourceVersion !== undefined)).toEqual([true])
  })
})
