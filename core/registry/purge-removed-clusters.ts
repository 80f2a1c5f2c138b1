import { clusterKeys } from '../keys/cluster-keys.ts'
import type { ObjectStore } from '../ports/object-store.ts'
import type { ClusterRecord } from './cluster-record.ts'
import { parseRecord, REGISTRY_PREFIX } from './registry.ts'

const DELETE_BATCH = 1000

/**
 * Deletes every object under `clusters/<id>/` of each cluster removed with its grace period
 * passed, then its record. The record goes last: a purge that fails half-way is finished by the
 * next run, and the id stays taken (re-registering is 409) until nothing of the old cluster is left.
 */
export async function purgeRemovedClusters(store: ObjectStore, now: Date): Promise<{ cluster: string; deleted: number }[]> {
  const due: ClusterRecord[] = []
  for await (const object of store.list(REGISTRY_PREFIX)) {
    const stored = await store.get(object.key)
    const record = stored && parseRecord(stored.body)
    if (record?.purgeAfter !== undefined && Date.parse(record.purgeAfter) <= now.getTime()) due.push(record)
  }
  const purged: { cluster: string; deleted: number }[] = []
  for (const record of due) {
    const keys: string[] = []
    for await (const object of store.list(clusterKeys(record.id).root)) keys.push(object.key)
    for (let start = 0; start < keys.length; start += DELETE_BATCH) await store.delete(keys.slice(start, start + DELETE_BATCH))
    await store.delete([REGISTRY_PREFIX + record.id])
    purged.push({ cluster: record.id, deleted: keys.length })
  }
  return purged
}
