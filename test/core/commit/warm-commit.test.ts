import { describe, expect, it } from 'vitest'
import { commitEvents, type CommitContext } from '../../../core/commit/commit-events.ts'
import { clusterKeys } from '../../../core/keys/cluster-keys.ts'
import type { ObjectStore } from '../../../core/ports/object-store.ts'
import { readGenerationRecord } from '../../../core/reading/generation-records.ts'
import { createMemoryStore } from '../../../functions/adapters/storage/memory-store.ts'
import { added, app, coldContext, instantClock, modified } from '../../support/contracts/cluster-apps.ts'

const keys = clusterKeys('warm')

/** A memory store that remembers the keys read (get and head) since `reads.length = 0`. */
function readingStore() {
  const store = createMemoryStore()
  const reads: string[] = []
  const watched: ObjectStore = {
    ...store,
    get: (key) => (reads.push(`get ${key}`), store.get(key)),
    head: (key) => (reads.push(`head ${key}`), store.head(key)),
  }
  return { store: watched, reads }
}

/** One process's commits to one cluster: a node cache kept from one commit to the next, as `hapedge serve` keeps one per cluster. */
function process(store: ObjectStore): CommitContext {
  return { store, cluster: 'warm', options: {}, context: coldContext(), clock: instantClock() }
}

describe('a process committing the generation after its own', () => {
  it("reads nothing from storage but HEAD: the last generation's manifest record and its generation record are known from that commit", async () => {
    const { store, reads } = readingStore()
    const warm = process(store)
    await commitEvents(warm, app(1).map(added))
    reads.length = 0
    const next = await commitEvents(warm, [modified(app(1, ['/', '/v2'])[0])])
    expect(next.committed).toBe(true)
    expect(reads).toEqual([`get ${keys.head}`])
    expect(next.loaded.nodes).toBe(0)
    expect(await readGenerationRecord(store, keys, 1)).toMatchObject({ generation: 1 })
  })

  it('checks storage for the record of a generation another process committed, and writes it when missing', async () => {
    const { store, reads } = readingStore()
    const warm = process(store)
    await commitEvents(warm, app(1).map(added))
    // Another process (a replica, or this one before a restart) commits generation 2, and its record is lost.
    await commitEvents(process(store), app(2).map(added))
    await store.delete([keys.generation(2)])
    reads.length = 0
    await commitEvents(warm, app(3).map(added))
    expect(reads).toContain(`head ${keys.generation(2)}`)
    expect(await readGenerationRecord(store, keys, 2)).toMatchObject({ generation: 2 })
  })
})
