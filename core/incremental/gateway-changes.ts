import type { Gateway } from '../kube/gateway.ts'
import { objectRef, type KubeObject, type ObjectRef } from '../kube/objects.ts'
import type { ClusterState, InvalidObject } from '../model/cluster-state.ts'
import { gatewayNamesSecret } from '../model/gateway-listeners.ts'
import type { GatewayRoute } from '../model/gateway-verdict.ts'
import type { DirtySet } from './dirty-set.ts'

/**
 * What a Gateway API object's change touches. An HTTPRoute's hosts come from its Gateways, so the
 * state says which hosts it indexed or unindexed (an HTTPRoute's, or a Gateway's routes'); a
 * Gateway's routes' reports, a GatewayClass's Gateways and their routes, a ReferenceGrant's
 * routes (those of the namespaces it lets send to its own), and a Service's routes when it comes or
 * goes (those whose backendRefs name it) are derived again.
 */
export function touchGatewayChange(
  state: ClusterState,
  ref: ObjectRef,
  previous: KubeObject | InvalidObject | undefined,
  current: KubeObject | InvalidObject | undefined,
  dirty: DirtySet,
): void {
  for (const host of state.touchedRouteHosts) dirty.hosts.add(host)
  state.touchedRouteHosts.clear()
  if (ref.kind === 'Gateway') touchRoutes(state, state.httpRoutesOfGateway(ref.namespace!, ref.name), dirty)
  if (ref.kind === 'GatewayClass') for (const gateway of state.gateways()) if (gateway.spec.gatewayClassName === ref.name) touchGateway(state, gateway, dirty)
  // A Service that comes or goes: the HTTPRoutes naming it answer 500 for it, or send to it (gateway-backend-refs.ts).
  const exists = (object: KubeObject | InvalidObject | undefined) => object !== undefined && !('issues' in object)
  if (ref.kind === 'Service' && exists(previous) !== exists(current)) touchRoutes(state, state.httpRoutesOfService(`${ref.namespace}/${ref.name}`), dirty)
  if (ref.kind === 'ReferenceGrant') {
    const namespaces = new Set<string>()
    for (const grant of [previous, current])
      if (grant && !('issues' in grant) && grant.kind === 'ReferenceGrant') for (const from of grant.spec.from) namespaces.add(from.namespace)
    for (const namespace of namespaces) touchRoutes(state, state.httpRoutesInNamespace(namespace), dirty)
  }
}

/** The Gateways whose HTTPS listeners serve a changed Secret (a scan of the few Gateways a cluster has): their hosts and reports. */
export function touchGatewaysOfSecret(state: ClusterState, secret: string, dirty: DirtySet): void {
  for (const gateway of state.gateways()) if (gatewayNamesSecret(gateway, secret)) touchGateway(state, gateway, dirty)
}

/** Every Gateway, HTTPRoute and GRPCRoute (the Gateway controller setting changed: which classes are served; a newer layout honours more of them). */
export function touchEveryGateway(state: ClusterState, dirty: DirtySet): void {
  for (const gateway of state.gateways()) dirty.objects.push(objectRef(gateway))
  touchRoutes(state, [...state.httpRoutes(), ...state.grpcRoutes()], dirty)
}

function touchGateway(state: ClusterState, gateway: Gateway, dirty: DirtySet): void {
  dirty.objects.push(objectRef(gateway))
  touchRoutes(state, state.httpRoutesOfGateway(gateway.metadata.namespace, gateway.metadata.name), dirty)
}

function touchRoutes(state: ClusterState, routes: readonly GatewayRoute[], dirty: DirtySet): void {
  for (const route of routes) {
    dirty.objects.push(objectRef(route))
    for (const host of state.httpRouteHosts(route)) dirty.hosts.add(host)
  }
}
