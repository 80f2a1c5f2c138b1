import type { ResyncEvent } from '../incremental/resource-version.ts'
import { objectKey, objectRef, readObject, type Kind } from '../kube/objects.ts'
import { TABLE, treeKey } from '../snapshot/tables.ts'
import type { Tree } from '../tree/tree.ts'

/** What a cluster holds per object: the object (valid or not) and the version last applied to it, or its tombstone. */
const STORED = [TABLE.object, TABLE.invalid, TABLE.resourceVersion].map((table) => treeKey(table, ''))

/**
 * A full resync as events: every listed object as MODIFIED (the ones unchanged change nothing),
 * and a DELETED for each object the snapshot holds, or holds a version or tombstone of, that the
 * list does not. They are resync events: they apply whatever versions were seen before, and leave
 * only the list's (see IncrementalCluster). Reads the snapshot's object keys (a scan: a resync is
 * the one request whose cost is the cluster's size); none for a cluster with no snapshot yet.
 */
export function resyncEvents(snapshot: Tree | undefined, items: readonly Record<string, unknown>[]): ResyncEvent[] {
  const listed = new Set<string>()
  const events: ResyncEvent[] = []
  for (const item of items) {
    const read = readObject(item)
    if (read.status === 'object') listed.add(objectKey(objectRef(read.object)))
    if (read.status === 'invalid') listed.add(objectKey(read.ref))
    events.push({ type: 'MODIFIED', object: item, resync: true })
  }
  for (const prefix of snapshot ? STORED : []) {
    for (const { key } of snapshot!.prefix(prefix)) {
      const stored = key.slice(prefix.length)
      if (listed.has(stored)) continue
      listed.add(stored)
      events.push({ type: 'DELETED', object: identityObject(stored), resync: true })
    }
  }
  return events
}

/** The least object a DELETED event needs: kind and name (and namespace), from `Kind/ns/name`. */
function identityObject(key: string): Record<string, unknown> {
  const [kind, ...rest] = key.split('/') as [Kind, ...string[]]
  const metadata = rest.length === 2 ? { namespace: rest[0], name: rest[1] } : { name: rest[0] }
  return { kind, metadata }
}
