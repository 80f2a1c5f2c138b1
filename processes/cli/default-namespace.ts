import { isRecord } from '../../core/kube/objects.ts'

const CLUSTER_SCOPED = new Set(['IngressClass', 'Namespace', 'CustomResourceDefinition', 'ClusterRole', 'ClusterRoleBinding'])

/**
 * Manifests often leave `metadata.namespace` out and let `kubectl apply -n` decide; files read
 * by `hapedge render` get the namespace kubectl would give them. (Watch events always carry it.)
 */
export function withDefaultNamespace(object: unknown, namespace: string): unknown {
  if (!isRecord(object) || typeof object.kind !== 'string' || CLUSTER_SCOPED.has(object.kind)) return object
  const metadata = isRecord(object.metadata) ? object.metadata : undefined
  if (!metadata || metadata.namespace !== undefined) return object
  return { ...object, metadata: { ...metadata, namespace } }
}
