import { GATEWAY_API } from '../kube/gateway-class.ts'
import type { GrpcRoute } from '../kube/gateway-grpc-route.ts'
import type { Gateway } from '../kube/gateway.ts'
import type { GatewayState } from './gateway-verdict.ts'
import type { Rejection } from './rejection.ts'

/** A GRPCRoute's parentRef that names a Gateway of this cluster's classes, and that Gateway. */
export interface GrpcParent {
  index: number
  gateway: Gateway
}

/** Why no listener takes a GRPCRoute: hapedge's listeners take HTTPRoutes only (their status's supportedKinds). */
export const GRPC_NOT_SERVED = 'hapedge does not serve GRPCRoutes yet (its listeners take HTTPRoutes only): not attached (NotAllowedByListeners)'

/** The parentRefs of a GRPCRoute that name Gateways this cluster serves (only those are this cluster's to report). */
export function grpcRouteParents(route: GrpcRoute, state: Pick<GatewayState, 'gateway' | 'servesGatewayClass'>): GrpcParent[] {
  const parents: GrpcParent[] = []
  route.spec.parentRefs?.forEach((parent, index) => {
    if ((parent.group ?? GATEWAY_API) !== GATEWAY_API || (parent.kind ?? 'Gateway') !== 'Gateway') return
    const gateway = state.gateway(parent.namespace ?? route.metadata.namespace, parent.name)
    if (gateway && state.servesGatewayClass(gateway.spec.gatewayClassName)) parents.push({ index, gateway })
  })
  return parents
}

/** A GRPCRoute of this cluster's Gateways, reported per parentRef as not attached; another controller's is not reported. */
export function grpcRouteRejection(route: GrpcRoute, state: Pick<GatewayState, 'gateway' | 'servesGatewayClass'>): Rejection | undefined {
  const parents = grpcRouteParents(route, state)
  if (parents.length === 0) return undefined
  const reasons = parents.map(
    ({ index, gateway }) => `spec.parentRefs[${index}]: Gateway ${gateway.metadata.namespace}/${gateway.metadata.name}: ${GRPC_NOT_SERVED}`,
  )
  return { object: `GRPCRoute ${route.metadata.namespace}/${route.metadata.name}`, reason: `${reasons.join('; ')}; the GRPCRoute is not served` }
}
