import { type Binds, listenerPortRefusal } from './gateway-ports.ts'
import type { Gateway } from '../kube/gateway.ts'
import type { HttpRoute } from '../kube/gateway-http-route.ts'
import type { BackendLookup } from './gateway-backend-refs.ts'
import { attachmentsOf, type Attached } from './gateway-attachment.ts'
import { readRouteRules, type RouteRules } from './gateway-route-rules.ts'
import type { Rejection } from './rejection.ts'

/** What an HTTPRoute's verdict reads of the cluster (ClusterState gives it): its Gateways, and whether its backendRefs resolve. */
export interface GatewayState extends BackendLookup {
  gateway(namespace: string, name: string): Gateway | undefined
  servesGatewayClass(name: string): boolean
  options: Binds
}

export interface RouteVerdict {
  attached: Attached
  rules: RouteRules
  /** Every reason to report, with its field path: parents not attached, what is not honoured, hosts not served. */
  reasons: string[]
  /** Whether the route is served: attached somewhere, and nothing in it that hapedge would have to drop. */
  served: boolean
}

export function describeHttpRoute(route: HttpRoute): string {
  return `HTTPRoute ${route.metadata.namespace}/${route.metadata.name}`
}

/**
 * Whether and where an HTTPRoute is served, and why not. A route is served whole or not at all:
 * one that asks for what hapedge does not honour (a filter, a header match, …) is
 * not served, since serving the rest would send its requests where the route does not say.
 */
export function httpRouteVerdict(route: HttpRoute, state: GatewayState): RouteVerdict {
  const attached = attachmentsOf(route, {
    gateway: (namespace, name) => state.gateway(namespace, name),
    servesClass: (name) => state.servesGatewayClass(name),
    portRefusal: (listener) => {
      const refusal = listenerPortRefusal(listener, state.options)
      return refusal && `port ${refusal} (NotAllowedByListeners)`
    },
  })
  const rules = readRouteRules(route, state)
  const reasons = [...attached.reasons, ...rules.reasons, ...rules.unresolved]
  const served = attached.attachments.length > 0 && rules.reasons.length === 0
  return { attached, rules, reasons: served || attached.ours ? reasons : [], served }
}

/** An HTTPRoute's reasons as one report, saying whether it is served. */
export function httpRouteRejection(route: HttpRoute, state: GatewayState): Rejection | undefined {
  const { reasons, served } = httpRouteVerdict(route, state)
  if (reasons.length === 0) return undefined
  return { object: describeHttpRoute(route), reason: served ? reasons.join('; ') : `${reasons.join('; ')}; the HTTPRoute is not served` }
}
