import type { ClusterKeys } from '../keys/cluster-keys.ts'
import type { ObjectStore } from '../ports/object-store.ts'
import type { CommittedState } from '../reading/head.ts'
import { hasExpired, parseSession } from './session.ts'

/**
 * The working states the cluster's live resync sessions began at (neither expired nor finished):
 * their finish compares the objects no page lists with them, so the garbage collection keeps their
 * nodes. An expired session changes nothing, and a finished one has compared everything.
 */
export async function liveSessionBegins(store: ObjectStore, keys: ClusterKeys, now: Date): Promise<CommittedState[]> {
  const begins: CommittedState[] = []
  for await (const { key } of store.list(keys.resyncSessions)) {
    const id = key.slice(keys.resyncSessions.length).split('/')[0]!
    if (key !== keys.resyncRecord(id)) continue
    const stored = await store.get(key)
    const session = stored && parseSession(stored.body)
    if (session?.begin && !hasExpired(session, now) && !session.finish?.answer) begins.push(session.begin)
  }
  return begins
}
