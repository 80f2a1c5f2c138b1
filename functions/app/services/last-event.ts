import type { ClusterKeys } from '../../../core/keys/cluster-keys.ts'
import type { ObjectStore } from '../../../core/ports/object-store.ts'

const key = (keys: ClusterKeys) => `${keys.root}last-event`

/** Notes when a cluster last sent events (best effort: a failure here never fails the write). */
export async function touchLastEvent(store: ObjectStore, keys: ClusterKeys, at: Date): Promise<void> {
  await store.put(key(keys), JSON.stringify({ at: at.toISOString() })).catch(() => undefined)
}

export async function lastEventAt(store: ObjectStore, keys: ClusterKeys): Promise<string | null> {
  const stored = await store.get(key(keys))
  return stored ? (JSON.parse(new TextDecoder().decode(stored.body)) as { at: string }).at : null
}
