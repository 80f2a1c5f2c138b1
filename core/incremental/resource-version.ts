import { isRecord } from '../kube/objects.ts'

/** An object's `metadata.resourceVersion` when it is an etcd revision (decimal), the only form that can be ordered. */
export function resourceVersionOf(object: Record<string, unknown>): string | undefined {
  const metadata = isRecord(object.metadata) ? object.metadata : undefined
  const version = metadata?.resourceVersion
  return typeof version === 'string' && /^[1-9]\d{0,19}$/.test(version) ? version : undefined
}

/** Orders decimal resource versions without parsing them (they can exceed 2^53). */
export function compareResourceVersions(a: string, b: string): number {
  return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0)
}

/** The last version applied to an object; a tombstone keeps a deleted object's, so an older write arriving late is refused. */
export interface SeenVersion {
  version: string
  deleted?: true
}
