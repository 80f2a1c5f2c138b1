import type { WatchedResource } from '../../functions/adapters/kubernetes/resource-watch.ts'

/**
 * Every kind hapedge reads: Ingresses, IngressClasses, Services, EndpointSlices, only
 * `kubernetes.io/tls` Secrets (the API server filters the rest out), and only the one ConfigMap
 * that holds the cluster's settings.
 */
export function watchedResources(configMap: { namespace: string; name: string }): WatchedResource[] {
  return [
    { apiVersion: 'networking.k8s.io/v1', kind: 'Ingress', path: '/apis/networking.k8s.io/v1/ingresses' },
    { apiVersion: 'networking.k8s.io/v1', kind: 'IngressClass', path: '/apis/networking.k8s.io/v1/ingressclasses' },
    { apiVersion: 'v1', kind: 'Service', path: '/api/v1/services' },
    { apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice', path: '/apis/discovery.k8s.io/v1/endpointslices' },
    { apiVersion: 'v1', kind: 'Secret', path: '/api/v1/secrets', fieldSelector: 'type=kubernetes.io/tls' },
    {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      path: `/api/v1/namespaces/${encodeURIComponent(configMap.namespace)}/configmaps`,
      fieldSelector: `metadata.name=${configMap.name}`,
    },
  ]
}
