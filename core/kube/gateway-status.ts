/**
 * The Gateway API's status as hapedge writes it (the `status` subresource of GatewayClasses,
 * Gateways and routes), with the fields and condition reasons the specification defines
 * (GatewayClassStatus, GatewayStatus, ListenerStatus, RouteParentStatus).
 */

/** A metav1.Condition. `observedGeneration` is the object's `metadata.generation`, which the writer sets from what it reads. */
export interface GatewayCondition {
  type: string
  status: 'True' | 'False' | 'Unknown'
  reason: string
  message: string
  lastTransitionTime: string
  observedGeneration: number
}

export interface RouteGroupKind {
  group: string
  kind: string
}

export interface ListenerStatus {
  name: string
  supportedKinds: RouteGroupKind[]
  attachedRoutes: number
  conditions: GatewayCondition[]
}

export interface RouteParentStatus {
  /** The route's parentRef as written. */
  parentRef: { group?: string; kind?: string; namespace?: string; name: string; sectionName?: string; port?: number }
  controllerName: string
  conditions: GatewayCondition[]
}

/** One object's status to write, by kind: a route's holds only this controller's `parents` entries (the writer keeps the others'). */
export type GatewayObjectStatus =
  | { kind: 'GatewayClass'; name: string; status: { conditions: GatewayCondition[] } }
  | { kind: 'Gateway'; namespace: string; name: string; status: { conditions: GatewayCondition[]; listeners: ListenerStatus[] } }
  | { kind: 'HTTPRoute' | 'GRPCRoute'; namespace: string; name: string; parents: RouteParentStatus[] }

/** Every Gateway API status this cluster's controller owns, computed from one committed generation. */
export interface GatewayApiStatus {
  controllerName: string
  /** Each object's status; a route that names Gateways only of other controllers is listed with no parents (so entries of ours it had go). */
  objects: GatewayObjectStatus[]
}

/**
 * The statuses that changed since a snapshot whose status was written (gatewayStatusChangeOfHead):
 * the others stand as written. `removed`: the objects (`Kind/ns/name`) that no longer have one.
 */
export interface GatewayStatusChange extends GatewayApiStatus {
  removed: string[]
}

/** Where each kind lives in the API (group gateway.networking.k8s.io). */
export const GATEWAY_STATUS_RESOURCES = {
  GatewayClass: { version: 'v1', plural: 'gatewayclasses' },
  Gateway: { version: 'v1', plural: 'gateways' },
  HTTPRoute: { version: 'v1', plural: 'httproutes' },
  GRPCRoute: { version: 'v1', plural: 'grpcroutes' },
} as const
