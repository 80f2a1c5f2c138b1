import type { ClusterKeys } from '../../../core/keys/cluster-keys.ts'
import type { ObjectStore } from '../../../core/ports/object-store.ts'

const key = (keys: ClusterKeys) => `${keys.root}last-event`

/**
 * How far a cluster's stored last-event time may lag behind its events: a burst of writes notes
 * it once a second, not with a durable write of its own beside every commit.
 */
export const LAST_EVENT_RESOLUTION_MS = 1_000

/** Per store, per cluster: when this process last stored the time. */
const stored = new WeakMap<ObjectStore, Map<string, number>>()

/** Notes when a cluster last sent events (best effort: a failure here never fails the write). */
export async function touchLastEvent(store: ObjectStore, keys: ClusterKeys, at: Date): Promise<void> {
  let byCluster = stored.get(store)
  if (!byCluster) stored.set(store, (byCluster = new Map()))
  const last = byCluster.get(keys.root)
  if (last !== undefined && Math.abs(at.getTime() - last) < LAST_EVENT_RESOLUTION_MS) return
  byCluster.set(keys.root, at.getTime())
  // A write that failed is tried again by the next event.
  await store.put(key(keys), JSON.stringify({ at: at.toISOString() })).catch(() => byCluster.delete(keys.root))
}

export async function lastEventAt(store: ObjectStore, keys: ClusterKeys): Promise<string | null> {
  const stored = await store.get(key(keys))
  return stored ? (JSON.parse(new TextDecoder().decode(stored.body)) as { at: string }).at : null
}
