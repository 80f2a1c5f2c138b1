import { describe, expect, it } from 'vitest'
import { LiveCluster } from '../../../core/incremental/live-cluster.ts'
import { listedStates } from '../../../core/ingest/listed-state.ts'
import { loadResyncEvents, objectTableRanges, resyncEvents } from '../../../core/ingest/resync.ts'
import { clusterKeys } from '../../../core/keys/cluster-keys.ts'
import { loadRange, loadRanges, type KeyRange } from '../../../core/reading/load-range.ts'
import { NodeLoader } from '../../../core/reading/node-loader.ts'
import { SNAPSHOT_SHAPE } from '../../../core/snapshot/keyspace.ts'
import { TABLE, treeKey } from '../../../core/snapshot/tables.ts'
import { MissingNodes } from '../../../core/tree/node.ts'
import { Tree } from '../../../core/tree/tree.ts'
import { createMemoryStore } from '../../../functions/adapters/storage/memory-store.ts'
import { added, app, coldContext } from '../../support/contracts/cluster-apps.ts'

const keys = clusterKeys('c')

/** A cluster of `apps` small apps with every snapshot node in a store, and a cold process's view of its snapshot. */
async function storedCluster(apps: number) {
  const cluster = new LiveCluster()
  const store = createMemoryStore()
  const applied = cluster.apply(
    Array.from({ length: apps }, (_, n) => app(n))
      .flat()
      .map(added),
  )
  await Promise.all(applied.created.snapshot.map((node) => store.put(keys.node(node.space, node.sha256), node.text)))
  const context = coldContext()
  const cold = new Tree(SNAPSHOT_SHAPE, cluster.current.snapshot.root, context)
  return { cluster, cold, loader: new NodeLoader(store, keys, context), context, store }
}

describe('loading a key range', () => {
  it('loads the nodes that meet the range a level per round, so the range then scans from the cache, and nothing else', async () => {
    const { cluster, cold, loader, context } = await storedCluster(300)
    expect(cold.root.level).toBeGreaterThan(1)
    const [from, to] = [treeKey(TABLE.object, 'Service/'), treeKey(TABLE.object, 'Service/\uffff')]
    await loadRange(cold, from, to, loader)
    expect(loader.stats.rounds).toBe(cold.root.level + 1)
    expect([...cold.scan(from, to)]).toEqual([...cluster.current.snapshot.scan(from, to)])
    expect(context.nodes.count).toBeLessThan(cluster.context.nodes.count / 2)
    expect(() => [...cold.scan(treeKey(TABLE.object, ''), from)]).toThrow(MissingNodes)
  })

  it('loads for many ranges at once the nodes it loads for each alone: points in any order, one twice, nested and wide ranges', async () => {
    const { cluster, store } = await storedCluster(300)
    const loadedFor = async (ranges: KeyRange[]) => {
      const read = new Set<string>()
      const context = coldContext()
      const reading = { ...store, get: (key: string) => (read.add(key), store.get(key)) }
      await loadRanges(new Tree(SNAPSHOT_SHAPE, cluster.current.snapshot.root, context), ranges, new NodeLoader(reading, keys, context))
      return read
    }
    const key = (n: number) => treeKey(TABLE.object, `Ingress/default/app-${n}`)
    const ranges: KeyRange[] = [
      ...[250, 7, 299, 7].map((n) => [key(n), `${key(n)}\u0000`] as const),
      // The inner range begins later and ends sooner: the outer one's later leaves are met all the same.
      [key(100), key(200)],
      [key(110), key(111)],
      [treeKey(TABLE.object, 'Service/'), treeKey(TABLE.object, 'Service/\uffff')],
    ]
    const alone = new Set<string>()
    for (const range of ranges) for (const node of await loadedFor([range])) alone.add(node)
    expect([...(await loadedFor(ranges))].sort()).toEqual([...alone].sort())
  })

  it('gives a resync the events of the in-memory merge, in slices each loaded a level per round, never running again per node', async () => {
    const { cluster, cold, loader } = await storedCluster(200)
    const items = Array.from({ length: 180 }, (_, n) => app(n, n % 7 === 0 ? ['/', '/v2'] : ['/']))
      .flat()
      .map((object) => object as Record<string, unknown>)
    const expected = resyncEvents(cluster.current.snapshot, items)
    expect(expected.length).toBeGreaterThan(0)
    const slice = 100
    expect(await loadResyncEvents(cold, listedStates(items), loader, slice)).toEqual(expected)
    const slices = Math.ceil(items.length / slice)
    expect(loader.stats.rounds).toBeLessThanOrEqual(slices * (cold.root.level + 1))
    expect(objectTableRanges('a', 'b')).toEqual([TABLE.object, TABLE.invalid, TABLE.resourceVersion].map((table) => [treeKey(table, 'a'), treeKey(table, 'b')]))
  })

  it("gives a resync's comparison the same reads whatever number of listed objects changed: one ordered scan, flat until the changes dominate", async () => {
    const listOf = (changed: number) =>
      Array.from({ length: 200 }, (_, n) => app(n, n < changed ? ['/', '/v2'] : ['/']))
        .flat()
        .map((object) => object as Record<string, unknown>)
    const reads: NodeLoader['stats'][] = []
    for (const changed of [0, 1, 20, 200]) {
      const { cold, loader } = await storedCluster(200)
      const events = await loadResyncEvents(cold, listedStates(listOf(changed)), loader, 100)
      expect(events).toHaveLength(changed)
      reads.push(loader.stats)
    }
    expect(reads.every((stats) => stats.nodes === reads[0]!.nodes && stats.rounds === reads[0]!.rounds)).toBe(true)
  })
})
