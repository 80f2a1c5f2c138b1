import { isRecord } from '../kube/objects.ts'
import type { Table } from '../snapshot/table.ts'
import type { WatchEvent } from './watch-event.ts'

/** Longer than any version an API server makes: taken as none rather than kept in the snapshot. */
const MAX_VERSION_LENGTH = 256

/**
 * An object's `metadata.resourceVersion`, as the Kubernetes API defines it: an opaque string that
 * tells only whether two states of one object are the same (equal) or not.
 */
export function resourceVersionOf(object: Record<string, unknown>): string | undefined {
  const metadata = isRecord(object.metadata) ? object.metadata : undefined
  const version = metadata?.resourceVersion
  return typeof version === 'string' && version !== '' && version.length <= MAX_VERSION_LENGTH ? version : undefined
}

/**
 * Orders decimal resource versions (etcd revisions, which can exceed 2^53) without parsing them.
 * Only for changes one stream carries together (the items of one audit batch, one forwarder's
 * watches), never across requests: a restored etcd counts again from an older revision, and one
 * far-future version would outrank every later one.
 */
export function compareResourceVersions(a: string, b: string): number {
  return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0)
}

/**
 * The version last applied to an object; a deletion keeps its own or, without one, the last
 * write's (a tombstone), so that the deleted write, sent again, is known as a repeat.
 */
export interface SeenVersion {
  version: string
  deleted?: true
}

/**
 * Whether an event repeats what was last applied to its object (a retried request): a write at
 * the version last written or deleted at, or a deletion at the version deleted at. Equal versions
 * are the same state, so dropping it changes nothing, except that a deleted object stays deleted.
 * Anything else applies in the order it comes, whatever its version says.
 */
export function repeatsSeen(seen: SeenVersion | undefined, version: string | undefined, deletion: boolean): boolean {
  return version !== undefined && seen?.version === version && (!deletion || seen.deleted === true)
}

/** What an event leaves recorded for its object (undefined: nothing). */
export function versionAfter(seen: SeenVersion | undefined, version: string | undefined, deletion: boolean): SeenVersion | undefined {
  if (!deletion) return version === undefined ? undefined : { version }
  const last = version ?? seen?.version
  return last === undefined ? undefined : { version: last, deleted: true }
}

/**
 * An event of a full resync (`PUT …/objects`): the list is the truth, so its events apply whatever
 * was seen before and leave recorded only the versions the list holds. Made only by `resyncEvents`;
 * a request body cannot carry the mark, since the request schemas keep only `type` and `object`.
 */
export type ResyncEvent = WatchEvent & { resync: true }

export const isResyncEvent = (event: WatchEvent): event is ResyncEvent => (event as Partial<ResyncEvent>).resync === true

/**
 * Records the version an event leaves its object at (key `Kind/ns/name`); false when the event
 * repeats what was last applied to it (a retried request), which is then dropped. Versions are
 * only compared for equality: events apply in the order they come (a request's in its order,
 * requests in the order they commit), since a restored etcd numbers from an older revision and a
 * far-future version would otherwise lock its object. A resync's events always apply, and a
 * deletion by resync leaves no tombstone: the list is the truth.
 */
export function recordVersion(versions: Table<SeenVersion>, key: string, event: WatchEvent): boolean {
  const version = resourceVersionOf(event.object)
  const seen = versions.get(key)
  const deletion = event.type === 'DELETED'
  const resync = isResyncEvent(event)
  if (!resync && repeatsSeen(seen, version, deletion)) return false
  const after = resync ? resyncVersion(event) : versionAfter(seen, version, deletion)
  if (after) versions.set(key, after)
  else if (seen) versions.delete(key)
  return true
}

/** What a resync's event leaves recorded, whatever was seen before: the list is the truth, and its deletions leave no tombstone. */
export function resyncVersion(event: WatchEvent): SeenVersion | undefined {
  return event.type === 'DELETED' ? undefined : versionAfter(undefined, resourceVersionOf(event.object), false)
}
