import { CommitContention } from '../commit/errors.ts'
import type { ClusterKeys } from '../keys/cluster-keys.ts'
import type { ObjectStore } from '../ports/object-store.ts'
import { workingState } from '../reading/head.ts'
import { readHead } from '../reading/read-head.ts'
import { sessionText, type ResyncSession } from './session.ts'

/** Times a begin records HEAD again when it moved meanwhile, before it answers 503. */
const TRIES = 5

/**
 * Stores a new session's record with the cluster's working state as it begins (`begin`), and
 * answers it once HEAD is seen unchanged after the record is stored. The garbage collection keeps
 * the nodes of every live session's `begin`, reading the records after HEAD, and its hold moves
 * HEAD: a state HEAD still named once the record was stored is either the one a running
 * collection marked or one a later collection finds in the record, never collected between.
 */
export async function beginSession(store: ObjectStore, keys: ClusterKeys, cluster: string, session: ResyncSession): Promise<ResyncSession> {
  const key = keys.resyncRecord(session.session)
  let condition: { ifNoneMatch: '*' } | { ifMatch: string } = { ifNoneMatch: '*' }
  for (let attempt = 1; ; attempt++) {
    const current = await readHead(store, keys)
    const record: ResyncSession = { ...session, begin: current ? workingState(current.head) : null }
    const etag = await store.put(key, sessionText(record), condition)
    if (etag === undefined) throw new Error(`resync session ${session.session}: its record changed while it began`)
    if ((await store.head(keys.head))?.etag === current?.etag) return record
    if (attempt >= TRIES) throw new CommitContention(cluster, attempt, 1)
    condition = { ifMatch: etag }
  }
}
