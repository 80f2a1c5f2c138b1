import { AUTH_SECRET_TYPES } from '../../core/kube/auth-secret.ts'
import { TLS_SECRET_TYPE } from '../../core/kube/secret.ts'
import type { WatchedResource } from '../../functions/adapters/kubernetes/resource-watch.ts'

/** The Secret types hapedge reads: certificates, and users for basic authentication. */
const SECRET_TYPES = [TLS_SECRET_TYPE, ...AUTH_SECRET_TYPES]

/**
 * Every kind hapedge reads: Ingresses, IngressClasses, Services, EndpointSlices, only the
 * Secrets of the types it reads (`kubernetes.io/tls`, `Opaque`, `nginx.org/htpasswd`: the API
 * server filters the rest out), and ConfigMaps: the forwarder sends the settings' one and those
 * an Ingress's custom-headers names (any namespace may hold one, so the watch is cluster-wide);
 * Namespaces (their labels, for a Gateway listener's allowedRoutes Selector); and the Gateway API's GatewayClasses, Gateways, HTTPRoutes, GRPCRoutes and ReferenceGrants.
 */
export function watchedResources(): WatchedResource[] {
  return [
    { apiVersion: 'networking.k8s.io/v1', kind: 'Ingress', path: '/apis/networking.k8s.io/v1/ingresses' },
    { apiVersion: 'networking.k8s.io/v1', kind: 'IngressClass', path: '/apis/networking.k8s.io/v1/ingressclasses' },
    { apiVersion: 'v1', kind: 'Service', path: '/api/v1/services' },
    { apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice', path: '/apis/discovery.k8s.io/v1/endpointslices' },
    // A field selector takes no "or": one watch per Secret type hapedge reads.
    ...SECRET_TYPES.map((type) => ({ apiVersion: 'v1', kind: 'Secret', path: '/api/v1/secrets', fieldSelector: `type=${type}` })),
    { apiVersion: 'v1', kind: 'ConfigMap', path: '/api/v1/configmaps' },
    { apiVersion: 'v1', kind: 'Namespace', path: '/api/v1/namespaces' },
    // The Gateway API's kinds, where its CRDs are installed: a cluster without them lists none (optional).
    ...GATEWAY_API_RESOURCES.map(([version, kind, plural]) => ({
      apiVersion: `gateway.networking.k8s.io/${version}`,
      kind,
      path: `/apis/gateway.networking.k8s.io/${version}/${plural}`,
      optional: true,
    })),
  ]
}

/** The Gateway API kinds hapedge reads, at the version it reads each (ReferenceGrant is still v1beta1 in the standard channel). */
const GATEWAY_API_RESOURCES = [
  ['v1', 'GatewayClass', 'gatewayclasses'],
  ['v1', 'Gateway', 'gateways'],
  ['v1', 'HTTPRoute', 'httproutes'],
  ['v1', 'GRPCRoute', 'grpcroutes'],
  ['v1beta1', 'ReferenceGrant', 'referencegrants'],
] as const

/** Whether an object is one a watch lists: of its kind and, for a watch of one Secret type, of that type. */
export function watchedBy(resource: WatchedResource, object: { kind?: string; type?: unknown }): boolean {
  const type = resource.fieldSelector?.startsWith('type=') ? resource.fieldSelector.slice('type='.length) : undefined
  return object.kind === resource.kind && (type === undefined || object.type === type)
}
