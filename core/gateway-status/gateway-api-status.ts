import type { GatewayApiStatus, GatewayObjectStatus } from '../kube/gateway-status.ts'
import type { ClusterState } from '../model/cluster-state.ts'
import { gatewayController } from '../model/gateway-controller.ts'
import { type GatewayRoute, routeVerdict } from '../model/gateway-verdict.ts'
import { gatewayClassStatus, gatewayStatus, listenerKey } from './gateway-object-status.ts'
import { routeParentsStatus, statusRoute } from './route-parent-status.ts'

/**
 * The Gateway API status this cluster's controller owns, from the objects of one generation:
 * its GatewayClasses, the Gateways of those classes, and this controller's `parents` entries of
 * every route that names a Gateway (none when they are all other controllers', so that entries
 * of ours the route no longer earns are taken out). Pure; the writer keeps transition times
 * where a condition did not change, and writes an object only when its status changed. The
 * reference the status a commit keeps (reconcile-gateway-status.ts) is held equal to.
 */
export function gatewayApiStatus(state: ClusterState, at: string): GatewayApiStatus {
  const controllerName = gatewayController(state.configMap())
  const objects: GatewayObjectStatus[] = []
  for (const gatewayClass of state.gatewayClasses())
    if (gatewayClass.spec.controllerName === controllerName) objects.push(gatewayClassStatus(gatewayClass.metadata.name, controllerName, at))
  // Keyed by name: objects read from a stored snapshot are not the same object twice.
  const attached = new Map<string, number>()
  const routes: GatewayRoute[] = [...state.httpRoutes(), ...state.grpcRoutes()]
  for (const route of routes) {
    const status = routeStatus(route, state, controllerName, at)
    if (!status) continue
    for (const listener of status.listeners) attached.set(listener, (attached.get(listener) ?? 0) + 1)
    objects.push(status.object)
  }
  for (const gateway of state.gateways()) if (state.servesGatewayClass(gateway.spec.gatewayClassName)) objects.push(gatewayStatus(gateway, state, attached, at))
  return { controllerName, objects }
}

/** A route's `parents` entries, with the listeners (`listenerKey`) it is attached to; undefined when it names no Gateway. */
export function routeStatus(
  route: GatewayRoute,
  state: ClusterState,
  controllerName: string,
  at: string,
): { object: GatewayObjectStatus; listeners: string[] } | undefined {
  if (!(route.spec.parentRefs ?? []).some((parent) => (parent.kind ?? 'Gateway') === 'Gateway')) return undefined
  const verdict = routeVerdict(route, state)
  const listeners = [...new Set(verdict.attached.attachments.map(({ gateway, listener }) => listenerKey(gateway, listener)))]
  const { namespace, name } = route.metadata
  return { object: { kind: route.kind, namespace, name, parents: routeParentsStatus(statusRoute(route), verdict, state, controllerName, at) }, listeners }
}
