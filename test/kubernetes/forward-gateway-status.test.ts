import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { KubeObject } from '../support/kube-api-double.ts'
import type { GatewayCondition } from '../../core/kube/gateway-status.ts'
import { DEFAULT_GATEWAY_CONTROLLER } from '../../core/model/settings.ts'
import { app } from '../support/contracts/cluster-apps.ts'
import { eventually } from '../support/eventually.ts'
import { startWriteStatusWorld, type WriteStatusWorld } from './write-status-world.ts'
import { gateway, gatewayClass, httpRoute } from '../support/gateway-objects.ts'
import { GATEWAY_API_RESOURCES } from '../support/kube-api/resources.ts'

type RouteStatus = { parents?: { controllerName: string; parentRef: { name: string }; conditions: GatewayCondition[] }[] }
type GatewayStatus = { conditions?: GatewayCondition[]; listeners?: { name: string; attachedRoutes: number; conditions: GatewayCondition[] }[] }

const reasons = (conditions: readonly GatewayCondition[] | undefined) => conditions?.map(({ type, status, reason }) => `${type}/${status}/${reason}`)

/**
 * The Gateway API's status along the whole path: objects in the cluster, the forwarder sends
 * them, the real `hapedge serve` commits and computes their status (`GET …/gateway-status`),
 * and `hapedge forward --write-status` writes it into the cluster through `/status`.
 */
describe('hapedge forward --write-status and the Gateway API', () => {
  let world: WriteStatusWorld
  const find = (object: { apiVersion: string; kind: string; metadata: { name: string; namespace?: string } }) => world.double.find(object)?.status

  beforeAll(async () => {
    const objects = [...app(1), gatewayClass(), gateway('edge', [{ name: 'http' }]), httpRoute({ name: 'shop', rules: [{ backends: [{ service: 'app-1' }] }] })]
    world = await startWriteStatusWorld(objects, { resources: GATEWAY_API_RESOURCES })
  }, 60_000)
  afterAll(() => world?.stop())

  it('writes the GatewayClass’s, the Gateway’s and the route’s status, and a route’s change moves its parents entry', async () => {
    await eventually(
      'the GatewayClass accepted',
      () => reasons((find(gatewayClass()) as GatewayStatus | undefined)?.conditions)?.[0] === 'Accepted/True/Accepted',
      30_000,
    )
    const edge = await eventually('the Gateway’s status', () => find(gateway('edge', [])) as GatewayStatus | undefined, 30_000)
    expect(reasons(edge.conditions)).toEqual(['Accepted/True/Accepted', 'Programmed/True/Programmed'])
    expect(edge.listeners).toMatchObject([{ name: 'http', attachedRoutes: 1 }])
    const shop = await eventually('the route’s parents', () => (find(httpRoute({ name: 'shop', rules: [] })) as RouteStatus | undefined)?.parents, 30_000)
    expect(shop.map((parent) => [parent.controllerName, parent.parentRef.name, reasons(parent.conditions)])).toEqual([
      [DEFAULT_GATEWAY_CONTROLLER, 'edge', ['Accepted/True/Accepted', 'ResolvedRefs/True/ResolvedRefs']],
    ])
    // Now it asks for a filter hapedge does not honour: it is not served, and its status says why.
    world.double.put(
      httpRoute({
        name: 'shop',
        rules: [{ backends: [{ service: 'app-1' }], filters: [{ type: 'ExtensionRef', extensionRef: { group: 'example.com', kind: 'Filter', name: 'x' } }] }],
      }) as KubeObject,
    )
    const refused = await eventually(
      'the route not accepted',
      () =>
        (find(httpRoute({ name: 'shop', rules: [] })) as RouteStatus | undefined)?.parents?.[0]?.conditions.find((condition) => condition.status === 'False'),
      30_000,
    )
    expect(refused).toMatchObject({ type: 'Accepted', reason: 'UnsupportedValue', observedGeneration: 2 })
    expect(refused.message).toContain('spec.rules[0].filters[0]: ExtensionRef is not honoured by hapedge')
  }, 90_000)
})
