import { GATEWAY_API } from '../kube/gateway-class.ts'
import type { Kind } from '../kube/objects.ts'

/** A resource hapedge reads, as an audit event's `objectRef` names it. */
export interface AuditedResource {
  group: string
  resource: string
  kind: Kind
  apiVersion: string
  namespaced: boolean
  /**
   * The `status` subresource is applied like the resource: its strategies for Ingress and Service
   * reset only `spec`, so labels, annotations and finalizers can change through it, and the
   * response holds the whole object.
   */
  status: boolean
}

export const AUDITED_RESOURCES: readonly AuditedResource[] = [
  { group: 'networking.k8s.io', resource: 'ingresses', kind: 'Ingress', apiVersion: 'networking.k8s.io/v1', namespaced: true, status: true },
  { group: 'networking.k8s.io', resource: 'ingressclasses', kind: 'IngressClass', apiVersion: 'networking.k8s.io/v1', namespaced: false, status: false },
  { group: '', resource: 'services', kind: 'Service', apiVersion: 'v1', namespaced: true, status: true },
  { group: '', resource: 'secrets', kind: 'Secret', apiVersion: 'v1', namespaced: true, status: false },
  { group: '', resource: 'configmaps', kind: 'ConfigMap', apiVersion: 'v1', namespaced: true, status: false },
  // Their labels are what a Gateway listener's allowedRoutes Selector reads.
  { group: '', resource: 'namespaces', kind: 'Namespace', apiVersion: 'v1', namespaced: false, status: false },
  { group: 'discovery.k8s.io', resource: 'endpointslices', kind: 'EndpointSlice', apiVersion: 'discovery.k8s.io/v1', namespaced: true, status: false },
  // The Gateway API's: their status subresource changes status alone (CRDs), which hapedge does not read.
  { group: GATEWAY_API, resource: 'gatewayclasses', kind: 'GatewayClass', apiVersion: `${GATEWAY_API}/v1`, namespaced: false, status: false },
  { group: GATEWAY_API, resource: 'gateways', kind: 'Gateway', apiVersion: `${GATEWAY_API}/v1`, namespaced: true, status: false },
  { group: GATEWAY_API, resource: 'httproutes', kind: 'HTTPRoute', apiVersion: `${GATEWAY_API}/v1`, namespaced: true, status: false },
  { group: GATEWAY_API, resource: 'grpcroutes', kind: 'GRPCRoute', apiVersion: `${GATEWAY_API}/v1`, namespaced: true, status: false },
  { group: GATEWAY_API, resource: 'referencegrants', kind: 'ReferenceGrant', apiVersion: `${GATEWAY_API}/v1beta1`, namespaced: true, status: false },
]

const byGroupResource = new Map(AUDITED_RESOURCES.map((entry) => [`${entry.group}/${entry.resource}`, entry]))

/** The resource an event targets, when hapedge reads it (the core group is `""` or absent). */
export function auditedResource(ref: { apiGroup?: string; resource?: string; subresource?: string }): AuditedResource | undefined {
  const entry = byGroupResource.get(`${ref.apiGroup ?? ''}/${ref.resource ?? ''}`)
  if (!entry || (ref.subresource && !(ref.subresource === 'status' && entry.status))) return undefined
  return entry
}

/**
 * The least object a DELETED needs: apiVersion, kind, name and namespace. Never a body, so a
 * deleted Secret's data cannot pass through.
 */
export function identityObject(entry: AuditedResource, name: string, namespace: string | undefined, resourceVersion?: string): Record<string, unknown> {
  const metadata = { name, ...(entry.namespaced ? { namespace } : {}), ...(resourceVersion ? { resourceVersion } : {}) }
  return { apiVersion: entry.apiVersion, kind: entry.kind, metadata }
}
