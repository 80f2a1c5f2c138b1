import { describe, expect, it } from 'vitest'
import { CommitContention } from '../../../core/commit/errors.ts'
import { clusterKeys } from '../../../core/keys/cluster-keys.ts'
import type { ObjectStore } from '../../../core/ports/object-store.ts'
import { beginSession } from '../../../core/resync/begin.ts'
import { newSession, parseSession } from '../../../core/resync/session.ts'
import { createMemoryStore } from '../../../functions/adapters/storage/memory-store.ts'

const keys = clusterKeys('prod')
/** A HEAD as a commit or the collector's hold writes it: each its own revision and snapshot root. */
const headText = (revision: number) =>
  JSON.stringify({
    generation: 1,
    revision,
    manifest: 'a'.repeat(64),
    snapshot: { sha256: revision.toString(16).padStart(64, '0'), level: 0, count: 0, weight: 0 },
    parent: null,
  })

/** The store, with HEAD written again (a commit landing) right after each of the first `moves` writes of a session record. */
function movingHead(moves: number) {
  const inner = createMemoryStore()
  let revision = 1
  const reads = { head: 0 }
  const store: ObjectStore = {
    ...inner,
    head: async (key) => (key === keys.head && reads.head++, inner.head(key)),
    put: async (key, body, condition) => {
      const etag = await inner.put(key, body, condition)
      if (key.endsWith('/session') && moves-- > 0) await inner.put(keys.head, headText(++revision))
      return etag
    },
  }
  return { store, reads, inner, seed: () => inner.put(keys.head, headText(revision)) }
}

const session = () => newSession(crypto.randomUUID(), new Date(), 60_000, 10)
const stored = async (store: ObjectStore, id: string) => parseSession((await store.get(keys.resyncRecord(id)))!.body)

describe('beginSession: the record names the state HEAD still names once it is stored', () => {
  it('records null for a cluster with no HEAD yet, and HEAD’s working state otherwise', async () => {
    const { store, seed } = movingHead(0)
    const empty = await beginSession(store, keys, 'prod', session())
    expect(empty.begin).toBeNull()
    expect((await stored(store, empty.session))?.begin).toBeNull()
    await seed()
    const begun = await beginSession(store, keys, 'prod', session())
    expect(begun.begin).toEqual({ manifest: 'a'.repeat(64), snapshot: { sha256: '1'.padStart(64, '0'), level: 0, count: 0, weight: 0 } })
    expect(await stored(store, begun.session)).toEqual(begun)
  })

  it('HEAD moved while the record was stored: reads it again and records that, until it holds still', async () => {
    const { store, reads, seed } = movingHead(2)
    await seed()
    const begun = await beginSession(store, keys, 'prod', session())
    expect(begun.begin?.snapshot.sha256).toBe('3'.padStart(64, '0'))
    expect(await stored(store, begun.session)).toEqual(begun)
    expect(reads.head).toBe(3)
  })

  it('HEAD moving every time: 503 (CommitContention) after a few tries', async () => {
    const { store, seed } = movingHead(Number.POSITIVE_INFINITY)
    await seed()
    await expect(beginSession(store, keys, 'prod', session())).rejects.toThrow(CommitContention)
  })
})
