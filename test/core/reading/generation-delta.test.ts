import { describe, expect, it } from 'vitest'
import { clusterKeys } from '../../../core/keys/cluster-keys.ts'
import { commitEvents } from '../../../core/commit/commit-events.ts'
import { generationDelta } from '../../../core/reading/generation-delta.ts'
import { NodeLoader } from '../../../core/reading/node-loader.ts'
import { readGeneration } from '../../../core/reading/read-generation.ts'
import { walkGeneration } from '../../../core/reading/walk-generation.ts'
import type { ObjectStore } from '../../../core/ports/object-store.ts'
import type { TreeContext } from '../../../core/tree/tree.ts'
import { nodeGzip } from '../../../functions/adapters/gzip/node-gzip.ts'
import { createMemoryStore } from '../../../functions/adapters/storage/memory-store.ts'
import { added, app, coldContext as portableContext, deleted, instantClock, modified } from '../../support/contracts/cluster-apps.ts'

const CLUSTER = 'delta'
/** A cold cache gunzipping with zlib, as hapedge serve does: these readers load thousands of nodes, and Web streams cost several times as much in Node. */
const coldContext = (): TreeContext => ({ ...portableContext(), gzip: nodeGzip })
const keys = clusterKeys(CLUSTER)

/** A reader that holds one generation: every node of it in its cache, as an agent does after installing it. */
async function readerHolding(store: ObjectStore, manifest: string): Promise<TreeContext> {
  const [loader, context] = cold(store)
  await walkGeneration({ manifest }, loader, context, { leaves: true })
  return context
}

/** A cold reader of the store: its loader and the cache it fills. */
function cold(store: ObjectStore): [NodeLoader, TreeContext] {
  const context = coldContext()
  return [new NodeLoader(store, keys, context), context]
}

/** A store that counts reads, to prove a reader given the delta needs nothing more. */
function counting(store: ObjectStore) {
  const reads: string[] = []
  return { reads, store: { ...store, get: (key: string) => (reads.push(key), store.get(key)) } satisfies ObjectStore }
}

describe('the delta between two generations', () => {
  const commit = (store: ObjectStore, events: Parameters<typeof commitEvents>[1]) =>
    commitEvents({ store, cluster: CLUSTER, options: {}, context: coldContext(), clock: instantClock() }, events).then((result) => result.head!.manifest)

  it('holds exactly what a reader of the old generation lacks to read the new one, and is a small part of it', async () => {
    const store = createMemoryStore()
    // 1,200 apps: a map chunk holds 128 lines, and at 600 the whole generation was 63 nodes, too few for a delta to be a tenth of it.
    const objects = Array.from({ length: 1200 }, (_, n) => app(n)).flat()
    const base = await commit(store, objects.map(added))
    const changes = [
      [modified(app(17, ['/', '/v2'])[0])],
      [deleted(objects[3 * 250]), deleted(objects[3 * 250 + 1]), deleted(objects[3 * 250 + 2])],
      app(1200).map(added),
    ]
    let have = base
    for (const events of changes) {
      const want = await commit(store, events)
      const [loader, context] = cold(store)
      const delta = await generationDelta(want, have, loader, context, Number.POSITIVE_INFINITY)

      const reader = await readerHolding(store, have)
      for (const [sha256, text] of delta) reader.nodes.add(sha256, text)
      const watched = counting(store)
      const files = await readGeneration(watched.store, CLUSTER, want, reader)
      expect(watched.reads).toEqual([])
      expect(files).toEqual(await readGeneration(store, CLUSTER, want, coldContext()))

      const whole = await walkGeneration({ manifest: want }, ...cold(store), { leaves: true })
      expect(delta.size).toBeGreaterThan(1)
      expect(delta.size * 10).toBeLessThan(whole.size)
      // Both sides are opened on the paths to what changed only: a subtree both generations hold is not walked on either.
      expect(loader.stats.nodes).toBeLessThan(delta.size * 3)
      have = want
    }
  })

  it('is the whole generation for a reader that holds none, empty for one that holds it, and stops at its budget', async () => {
    const store = createMemoryStore()
    const manifest = await commit(
      store,
      Array.from({ length: 50 }, (_, n) => app(n))
        .flat()
        .map(added),
    )
    const whole = await walkGeneration({ manifest }, ...cold(store), { leaves: true })
    const full = await generationDelta(manifest, undefined, ...cold(store), Number.POSITIVE_INFINITY)
    expect(new Set([...full.keys()].map((sha256) => `blobs/${sha256}`))).toEqual(whole)
    expect((await generationDelta(manifest, manifest, ...cold(store), Number.POSITIVE_INFINITY)).size).toBe(0)
    const bounded = await generationDelta(manifest, undefined, ...cold(store), 2_000)
    expect(bounded.size).toBeGreaterThan(0)
    expect([...bounded.values()].reduce((sum, text) => sum + text.length, 0)).toBeLessThanOrEqual(2_000)
  })
})
