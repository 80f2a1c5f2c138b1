import type { Gateway } from '../kube/gateway.ts'
import { objectRef, type KubeObject, type ObjectRef } from '../kube/objects.ts'
import type { Namespace } from '../kube/namespace.ts'
import type { ClusterState, InvalidObject } from '../model/cluster-state.ts'
import { attachmentsOf, gatewayKey, parentGatewaysOf } from '../model/gateway-attachment.ts'
import { gatewayNamesSecret, gatewayNamesSecretIn } from '../model/gateway-listeners.ts'
import type { GatewayRoute } from '../model/gateway-verdict.ts'
import { namespaceRefusal, namespacesFrom } from '../model/gateway-namespaces.ts'
import type { DirtySet } from './dirty-set.ts'
import type { Settings } from '../model/settings.ts'

/**
 * What a Gateway API object's change touches. An HTTPRoute's hosts come from its Gateways, so the
 * state says which hosts it indexed or unindexed (an HTTPRoute's, or a Gateway's routes'); a
 * Gateway's routes' reports, a GatewayClass's Gateways and their routes, a ReferenceGrant's
 * routes (those of the namespaces it lets send to its own) and Gateways (those naming a Secret
 * of its namespace), a Service's routes when it comes or
 * goes (those whose backendRefs name it), and a Namespace's routes whose attachment its labels
 * change, are derived again.
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
    // The Gateways whose listeners name a Secret of its namespace (gateway-listeners.ts): their certificates.
    for (const gateway of state.gateways()) if (gatewayNamesSecretIn(gateway, ref.namespace!)) touchGateway(state, gateway, dirty)
  }
  if (ref.kind === 'Namespace') touchNamespaceChange(state, ref.name, asNamespace(previous), asNamespace(current), dirty)
}

const asNamespace = (object: KubeObject | InvalidObject | undefined) => (object && !('issues' in object) && object.kind === 'Namespace' ? object : undefined)

/**
 * The HTTPRoutes of a Namespace whose attachment its change (of labels, or its coming or going)
 * changes: a Selector listener that selected it and no longer does, or the reverse. Only the
 * Gateways (a scan of the few a cluster has) are read when none of their Selectors turns; then
 * the namespace's routes that name such a Gateway are attached both ways and compared.
 */
function touchNamespaceChange(state: ClusterState, name: string, before: Namespace | undefined, after: Namespace | undefined, dirty: DirtySet): void {
  const turned = new Set<string>()
  for (const gateway of state.gateways()) {
    const turns = gateway.spec.listeners.some(
      (listener) =>
        namespacesFrom(listener) === 'Selector' &&
        namespaceRefusal(listener, gateway, name, () => before) !== namespaceRefusal(listener, gateway, name, () => after),
    )
    if (turns) turned.add(gatewayKey(gateway.metadata.namespace, gateway.metadata.name))
  }
  if (turned.size === 0) return
  const attached = (route: GatewayRoute, namespace: Namespace | undefined) =>
    JSON.stringify(
      attachmentsOf(route, {
        gateway: (namespace, name) => state.gateway(namespace, name),
        servesClass: (name) => state.servesGatewayClass(name),
        namespace: () => namespace,
      }).parents.map(({ index, attachments, refusal }) => [index, attachments.map(({ listener, hosts }) => [listener.name, hosts]), refusal]),
    )
  const moved = state
    .httpRoutesInNamespace(name)
    .filter((route) => [...parentGatewaysOf(route)].some((gateway) => turned.has(gateway)) && attached(route, before) !== attached(route, after))
  touchRoutes(state, moved, dirty)
}

/** The Gateways whose HTTPS listeners serve a changed Secret (a scan of the few Gateways a cluster has): their hosts and reports. */
export function touchGatewaysOfSecret(state: ClusterState, secret: string, dirty: DirtySet): void {
  for (const gateway of state.gateways()) if (gatewayNamesSecret(gateway, secret)) touchGateway(state, gateway, dirty)
}

/** The settings a Gateway's and its routes' verdicts read: which classes are served (gateway-controller), whether HTTPS listeners take GRPCRoutes (use-http2). */
export const GATEWAY_SETTINGS = ['gateway-controller', 'use-http2'] as const satisfies readonly (keyof Settings)[]

/** Every Gateway, HTTPRoute and GRPCRoute (a GATEWAY_SETTINGS setting changed; a newer layout honours more of them). */
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
