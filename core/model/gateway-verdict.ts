import { type Binds, listenerPortRefusal } from './gateway-ports.ts'
import type { Gateway } from '../kube/gateway.ts'
import type { GrpcRoute } from '../kube/gateway-grpc-route.ts'
import type { HttpRoute } from '../kube/gateway-http-route.ts'
import type { BackendLookup } from './gateway-backend-refs.ts'
import type { Namespace } from '../kube/namespace.ts'
import { attachmentsOf, type Attached, type GatewayLookup } from './gateway-attachment.ts'
import { readGrpcRules } from './gateway-grpc-rules.ts'
import { kindRefusal } from './gateway-listeners.ts'
import { readRouteRules, type RouteRules } from './gateway-route-rules.ts'
import type { Rejection } from './rejection.ts'

/** The route kinds hapedge serves: HTTPRoute, and GRPCRoute read as HTTPRoute rules on the gRPC path (gateway-grpc-rules.ts). */
export type GatewayRoute = HttpRoute | GrpcRoute

/** What a route's verdict reads of the cluster (ClusterState gives it): its Gateways, and whether its backendRefs resolve. */
export interface GatewayState extends BackendLookup {
  gateway(namespace: string, name: string): Gateway | undefined
  servesGatewayClass(name: string): boolean
  options: Binds
  namespace(name: string): Namespace | undefined
  http2Offered(): boolean
}

export interface RouteVerdict {
  attached: Attached
  rules: RouteRules
  /** Every reason to report, with its field path: parents not attached, what is not honoured, hosts not served. */
  reasons: string[]
  /** Whether the route is served: attached somewhere, and nothing in it that hapedge would have to drop. */
  served: boolean
}

export function describeRoute(route: GatewayRoute): string {
  return `${route.kind} ${route.metadata.namespace}/${route.metadata.name}`
}

/**
 * Whether and where an HTTPRoute or a GRPCRoute is served, and why not. A route is served whole or not at all:
 * one that asks for what hapedge does not honour (a filter, a header match, …) is
 * not served, since serving the rest would send its requests where the route does not say.
 */
export function routeVerdict(route: GatewayRoute, state: GatewayState): RouteVerdict {
  const lookup: GatewayLookup = {
    gateway: (namespace, name) => state.gateway(namespace, name),
    servesClass: (name) => state.servesGatewayClass(name),
    portRefusal: (listener) => {
      const refusal = listenerPortRefusal(listener, state.options)
      return refusal && `port ${refusal} (NotAllowedByListeners)`
    },
    namespace: (name) => state.namespace(name),
    kindRefusal: (listener, kind) => kindRefusal(listener, kind, state.http2Offered()),
  }
  const attached = attachmentsOf(route, lookup)
  const rules = route.kind === 'GRPCRoute' ? readGrpcRules(route, state) : readRouteRules(route, state)
  const reasons = [...attached.reasons, ...rules.reasons, ...rules.unresolved]
  const served = attached.attachments.length > 0 && rules.reasons.length === 0
  return { attached, rules, reasons: served || attached.ours ? reasons : [], served }
}

/** A route's reasons as one report, saying whether it is served. */
export function routeRejection(route: GatewayRoute, state: GatewayState): Rejection | undefined {
  const { reasons, served } = routeVerdict(route, state)
  if (reasons.length === 0) return undefined
  return { object: describeRoute(route), reason: served ? reasons.join('; ') : `${reasons.join('; ')}; the ${route.kind} is not served` }
}
