import type { WatchEvent } from '../incremental/watch-event.ts'
import { objectKey, objectRef, readObject, type Kind } from '../kube/objects.ts'
import { TABLE, treeKey } from '../snapshot/tables.ts'
import type { Tree } from '../tree/tree.ts'

const STORED = [TABLE.object, TABLE.invalid].map((table) => treeKey(table, ''))

/**
 * A full resync as events: every listed object as MODIFIED (the ones unchanged change nothing),
 * and a DELETED for each stored object the list no longer holds. Reads the snapshot's object
 * keys (a scan: a resync is the one request whose cost is the cluster's size).
 */
export function resyncEvents(snapshot: Tree, items: readonly Record<string, unknown>[], listVersion?: string): WatchEvent[] {
  const listed = new Set<string>()
  const events: WatchEvent[] = []
  for (const item of items) {
    const read = readObject(item)
    if (read.status === 'object') listed.add(objectKey(objectRef(read.object)))
    if (read.status === 'invalid') listed.add(objectKey(read.ref))
    events.push({ type: 'MODIFIED', object: item })
  }
  for (const prefix of STORED) {
    for (const { key } of snapshot.prefix(prefix)) {
      const stored = key.slice(prefix.length)
      if (!listed.has(stored)) events.push({ type: 'DELETED', object: identityObject(stored, listVersion) })
    }
  }
  return events
}

/**
 * The least object a DELETED event needs: kind and name (and namespace), from `Kind/ns/name`;
 * with the list's resourceVersion, so an object created after the list was taken is not deleted.
 */
function identityObject(key: string, listVersion: string | undefined): Record<string, unknown> {
  const [kind, ...rest] = key.split('/') as [Kind, ...string[]]
  const metadata: Record<string, string | undefined> = rest.length === 2 ? { namespace: rest[0], name: rest[1] } : { name: rest[0] }
  if (listVersion) metadata.resourceVersion = listVersion
  return { kind, metadata }
}
