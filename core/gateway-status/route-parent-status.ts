import type { GatewayCondition, RouteParentStatus } from '../kube/gateway-status.ts'
import type { HttpRoute } from '../kube/gateway-http-route.ts'
import type { ClusterState } from '../model/cluster-state.ts'
import { mirrorBackendRefs, unresolvedBackendRef, type BackendReference, type UnresolvedRef } from '../model/gateway-backend-refs.ts'
import type { GatewayRoute, RouteVerdict } from '../model/gateway-verdict.ts'
import { gatewayCondition } from './gateway-condition.ts'

/** What a route's parents' status reads of it: its identity, parentRefs and every backendRef with its field path. */
export interface StatusRoute {
  kind: 'HTTPRoute' | 'GRPCRoute'
  metadata: HttpRoute['metadata']
  spec: { parentRefs?: HttpRoute['spec']['parentRefs'] }
  backendRefs: { at: string; ref: BackendReference }[]
}

/**
 * This controller's `status.parents` entries of a route, one per parentRef naming a Gateway of
 * this cluster's classes: `Accepted` (attached and served; False with the reason it is not
 * attached there, or UnsupportedValue when it asks for what hapedge does not honour, so it is
 * not served at all) and `ResolvedRefs` (every backendRef a Service that may be sent to and exists).
 */
export function routeParentsStatus(route: StatusRoute, verdict: RouteVerdict, state: ClusterState, controllerName: string, at: string): RouteParentStatus[] {
  const resolved = resolvedRefs(route, state, at)
  return verdict.attached.parents.map((parent) => ({
    parentRef: route.spec.parentRefs![parent.index]!,
    controllerName,
    conditions: [accepted(parent.refusal, verdict, at), resolved],
  }))
}

function accepted(refusal: RouteVerdict['attached']['parents'][number]['refusal'], verdict: RouteVerdict, at: string): GatewayCondition {
  if (refusal) return gatewayCondition(at, 'Accepted', false, refusal.reason, refusal.message)
  if (!verdict.served) return gatewayCondition(at, 'Accepted', false, 'UnsupportedValue', `not served: ${verdict.reasons.join('; ')}`)
  return gatewayCondition(at, 'Accepted', true, 'Accepted', 'attached and served')
}

function resolvedRefs(route: StatusRoute, state: ClusterState, at: string): GatewayCondition {
  const { namespace } = route.metadata
  const unresolved: (UnresolvedRef & { at: string })[] = []
  for (const { at: where, ref } of route.backendRefs) {
    const refusal = unresolvedBackendRef(ref, { kind: route.kind, namespace }, state)
    if (refusal) unresolved.push({ ...refusal, at: where })
  }
  if (unresolved.length === 0) return gatewayCondition(at, 'ResolvedRefs', true, 'ResolvedRefs', 'every backendRef resolves')
  return gatewayCondition(at, 'ResolvedRefs', false, unresolved[0]!.reason, unresolved.map((ref) => `${ref.at}: ${ref.message}`).join('; '))
}

/** A route as its parents' status reads it. */
export function statusRoute(route: GatewayRoute): StatusRoute {
  return {
    kind: route.kind,
    metadata: route.metadata,
    spec: route.spec,
    backendRefs: [
      ...(route.spec.rules ?? []).flatMap((rule, r) => (rule.backendRefs ?? []).map((ref, b) => ({ at: `spec.rules[${r}].backendRefs[${b}]`, ref }))),
      ...mirrorBackendRefs(route.spec.rules),
    ],
  }
}
