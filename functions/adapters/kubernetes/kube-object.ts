/** An object as the API server sends it, kept as JSON: the forwarder passes objects on and reads only their identity and a few fields. */
export interface KubeObject {
  apiVersion?: string
  kind?: string
  metadata?: {
    name?: string
    namespace?: string
    resourceVersion?: string
    annotations?: Record<string, string>
    managedFields?: unknown
    [field: string]: unknown
  }
  [field: string]: unknown
}

const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration'

/**
 * The object as the function gets it: `apiVersion` and `kind` set (a LIST leaves them off each
 * item), without `managedFields` and `kubectl apply`'s copy of the whole object, which hapedge
 * never reads and which double a Secret's size.
 */
export function trimObject(object: KubeObject, apiVersion: string, kind: string): KubeObject {
  const { managedFields: _managedFields, ...metadata } = object.metadata ?? {}
  if (metadata.annotations && LAST_APPLIED in metadata.annotations) {
    const { [LAST_APPLIED]: _lastApplied, ...annotations } = metadata.annotations
    metadata.annotations = annotations
  }
  return { ...object, apiVersion, kind, metadata }
}

/** `Secret/shop/tls`: an object's identity across kinds. */
export function objectKey(object: KubeObject): string {
  const { namespace, name } = object.metadata ?? {}
  return namespace ? `${object.kind}/${namespace}/${name}` : `${object.kind}/${name}`
}
