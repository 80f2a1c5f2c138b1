import { describe, expect, it } from 'vitest'
import { LiveCluster } from '../../../core/incremental/live-cluster.ts'
import { clusterKeys } from '../../../core/keys/cluster-keys.ts'
import { loadRange } from '../../../core/reading/load-range.ts'
import { NodeLoader } from '../../../core/reading/node-loader.ts'
import { runLoading } from '../../../core/reading/run-loading.ts'
import { SNAPSHOT_SHAPE } from '../../../core/snapshot/keyspace.ts'
import { TABLE, treeKey } from '../../../core/snapshot/tables.ts'
import { NodeCache } from '../../../core/tree/node-cache.ts'
import { Tree } from '../../../core/tree/tree.ts'
import { sha256Text } from '../../../core/hash.ts'
import { createMemoryStore } from '../../../functions/adapters/storage/memory-store.ts'
import { added, app } from '../../support/contracts/cluster-apps.ts'

const keys = clusterKeys('c')
const SERVICES: [string, string] = [treeKey(TABLE.object, 'Service/'), treeKey(TABLE.object, 'Service/\uffff')]

/** A cluster of 300 small apps with every snapshot node in a store, and its snapshot seen through a cache of `budget` characters. */
async function storedCluster(budget: number) {
  const cluster = new LiveCluster()
  const store = createMemoryStore()
  const applied = cluster.apply(
    Array.from({ length: 300 }, (_, n) => app(n))
      .flat()
      .map(added),
  )
  await Promise.all(applied.created.snapshot.map((node) => store.put(keys.node(node.space, node.sha256), node.text)))
  const context = { nodes: new NodeCache(budget), hash: sha256Text }
  const cold = new Tree(SNAPSHOT_SHAPE, cluster.current.snapshot.root, context)
  return { cluster, cold, loader: new NodeLoader(store, keys, context), context }
}

/** Reads that load what they lack and run again: each must end, whatever the cache can hold. */
describe('reads over a cache smaller than what they need', () => {
  it('read a range whole, holding what they loaded until they end, and leave the cache within its budget', async () => {
    const { cluster, cold, loader, context } = await storedCluster(1)
    // Without the hold, each load evicted the node the run before had read: a run per node, without end.
    await loadRange(cold, ...SERVICES, loader)
    expect(await runLoading(() => [...cold.scan(...SERVICES)], loader)).toEqual([...cluster.current.snapshot.scan(...SERVICES)])
    expect(context.nodes.bytes).toBeLessThanOrEqual(1)
  })

  it('stop, naming the nodes, when a hold already in force has no room for them and a run misses only nodes it loaded', async () => {
    // Room for a node or two of the path, not all of it: each load evicted one the run before read,
    // and the runs went round without end (only the same miss twice in a row was caught). 5,000 characters
    // hold this path's root and the node below it, not its leaf too (leaves of 16 objects: 2,000 held only one).
    const { cold, loader, context } = await storedCluster(5000)
    // As a commit that may be split holds up to its share, and is stopped once it loses what it read.
    context.nodes.hold(0)
    const read = runLoading(() => cold.get(treeKey(TABLE.object, 'Service/default/app-150')), loader)
    await expect(read).rejects.toThrow(new RegExp(`cannot hold one change's nodes \\(${cold.root.sha256} evicted since loaded\\)`))
    // A round per level of the path, then the root missed again: stopped there.
    expect(loader.stats.rounds).toBe(cold.root.level + 1)
  })
})
