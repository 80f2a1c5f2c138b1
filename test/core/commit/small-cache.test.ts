import { describe, expect, it } from 'vitest'
import { seededRandom } from '../../../bench/random.ts'
import { syntheticCluster } from '../../../bench/synthetic-cluster.ts'
import { commitEvents } from '../../../core/commit/commit-events.ts'
import { sha256Text } from '../../../core/hash.ts'
import type { WatchEvent } from '../../../core/incremental/watch-event.ts'
import { NodeCache } from '../../../core/tree/node-cache.ts'
import { createMemoryStore } from '../../../functions/adapters/storage/memory-store.ts'

/** A commit larger than its cluster's node cache (a Worker's is a few MiB): what it makes is not in storage yet, so eviction must not lose it. */
describe('a commit that makes more nodes than its cache holds', () => {
  const commitWith = async (budget: number) => {
    const objects = syntheticCluster(300, seededRandom(19))
    const ctx = { store: createMemoryStore(), cluster: 'c', options: {}, context: { nodes: new NodeCache(budget), hash: sha256Text } }
    const committed = await commitEvents(
      ctx,
      objects.map((object) => ({ type: 'ADDED', object }) as WatchEvent),
    )
    return { head: committed.head }
  }

  it('commits, and commits what an unbounded cache would', async () => {
    const small = await commitWith(16 * 1024)
    const unbounded = await commitWith(Number.POSITIVE_INFINITY)
    expect(small.head?.snapshot).toEqual(unbounded.head?.snapshot)
    expect(small.head?.manifest).toBe(unbounded.head?.manifest)
  })
})
