import { describe, expect, it } from 'vitest'
import { seededRandom } from '../../../bench/random.ts'
import { syntheticCluster } from '../../../bench/synthetic-cluster.ts'
import { commitEvents } from '../../../core/commit/commit-events.ts'
import { sha256Text } from '../../../core/hash.ts'
import type { WatchEvent } from '../../../core/incremental/watch-event.ts'
import { NodeCache } from '../../../core/tree/node-cache.ts'
import { createMemoryStore } from '../../../functions/adapters/storage/memory-store.ts'

const added = (object: unknown) => ({ type: 'ADDED', object }) as WatchEvent

/** A commit larger than its cluster's node cache (a Worker's is a few MiB): what it makes is not in storage yet, so eviction must not lose it. */
describe('a commit that makes more nodes than its cache holds', () => {
  const commitWith = async (budget: number) => {
    const objects = syntheticCluster(300, seededRandom(19))
    const ctx = { store: createMemoryStore(), cluster: 'c', options: {}, context: { nodes: new NodeCache(budget), hash: sha256Text } }
    const committed = await commitEvents(ctx, objects.map(added))
    return { head: committed.head }
  }

  it('commits, and commits what an unbounded cache would', async () => {
    const small = await commitWith(16 * 1024)
    const unbounded = await commitWith(Number.POSITIVE_INFINITY)
    expect(small.head?.snapshot).toEqual(unbounded.head?.snapshot)
    expect(small.head?.manifest).toBe(unbounded.head?.manifest)
  })
})

describe('a change whose commit reads more nodes than its whole cache holds', () => {
  /** The cluster committed, then one Ingress of a host many share given another path, through `nodes`. */
  const changeWith = async (nodes: NodeCache) => {
    const objects = syntheticCluster(300, seededRandom(19))
    const store = createMemoryStore()
    await commitEvents({ store, cluster: 'c', options: {}, context: { nodes: new NodeCache(), hash: sha256Text } }, objects.map(added))
    const shared = objects.find((object) => object.kind === 'Ingress' && JSON.stringify(object).includes('shared-'))!
    const spec = shared.spec as { rules: { http: { paths: unknown[] } }[] }
    const changed = { ...shared, spec: { ...spec, rules: [...spec.rules, { host: 'more.example.com', http: spec.rules[0]!.http }] } }
    const committed = await commitEvents({ store, cluster: 'c', options: {}, context: { nodes, hash: sha256Text } }, [{ type: 'MODIFIED', object: changed }])
    return { head: committed.head, loaded: committed.loaded }
  }

  it('commits what an unbounded cache would: what it read stays held until it is committed, beyond the budget', async () => {
    // 2 KiB of nodes, a quarter of them its hold's: smaller than one path from a root to a leaf.
    // Bounded, each load evicted what the run before had read, and the commit ran without end.
    const tiny = new NodeCache(2048, 512)
    const small = await changeWith(tiny)
    const unbounded = await changeWith(new NodeCache())
    expect(small.head?.snapshot).toEqual(unbounded.head?.snapshot)
    expect(small.head?.manifest).toBe(unbounded.head?.manifest)
    expect(small.loaded.chars).toBeGreaterThan(2048 + 512)
    // Released once committed: back within the budget.
    expect(tiny.bytes).toBeLessThanOrEqual(2048)
  })
})
