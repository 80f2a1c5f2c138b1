import { z } from 'zod'
import { CLUSTER_SCOPED_KINDS, isRecord, objectRef, readObject, type ObjectRef, type ReadResult } from '../kube/objects.ts'
import { withTlsProblem } from '../kube/tls-secret-check.ts'

/** A Kubernetes watch event, as the API server streams it (`BOOKMARK` and `ERROR` carry no object change). */
export const watchEvent = z.object({
  type: z.enum(['ADDED', 'MODIFIED', 'DELETED']),
  object: z.record(z.string(), z.unknown()),
})

/** A watch event; `tlsProblem` is set where events come in (never from a request body) on a TLS Secret whose certificate and key do not load together. */
export type WatchEvent = z.infer<typeof watchEvent> & { tlsProblem?: string }

const READ_KINDS = new Set([
  'Ingress',
  'IngressClass',
  'Service',
  'EndpointSlice',
  'Secret',
  'ConfigMap',
  'GatewayClass',
  'Gateway',
  'HTTPRoute',
  'GRPCRoute',
  'ReferenceGrant',
  'Namespace',
])

/**
 * What an event does to the object set: put a read (valid or not), or remove a reference. A
 * delete needs only the identity, and so does an update that turns an object into one hapedge
 * does not read (a Secret whose type is no longer `kubernetes.io/tls`).
 */
export type ObjectChange = { put: Exclude<ReadResult, { status: 'skipped' }> } | { remove: ObjectRef } | { ignore: string }

export function objectChange(event: WatchEvent): ObjectChange {
  const ref = identity(event.object)
  if (event.type === 'DELETED') return ref ? { remove: ref } : { ignore: 'a deleted object without kind and name' }
  const read = withTlsProblem(readObject(event.object), event.tlsProblem)
  if (read.status !== 'skipped') return { put: read }
  return ref ? { remove: ref } : { ignore: read.reason }
}

/** The object a change puts or removes. */
export function changedRef(change: Exclude<ObjectChange, { ignore: string }>): ObjectRef {
  if ('remove' in change) return change.remove
  return change.put.status === 'object' ? objectRef(change.put.object) : change.put.ref
}

function identity(object: Record<string, unknown>): ObjectRef | undefined {
  const kind = object.kind
  const metadata = isRecord(object.metadata) ? object.metadata : {}
  if (typeof kind !== 'string' || !READ_KINDS.has(kind) || typeof metadata.name !== 'string') return undefined
  if (CLUSTER_SCOPED_KINDS.has(kind)) return { kind: kind as ObjectRef['kind'], name: metadata.name }
  if (typeof metadata.namespace !== 'string') return undefined
  return { kind: kind as ObjectRef['kind'], namespace: metadata.namespace, name: metadata.name }
}
