import { describe, expect, it } from 'vitest'
import { commitEvents } from '../../../core/commit/commit-events.ts'
import { fileShape } from '../../../core/generation/file-shapes.ts'
import { clusterKeys } from '../../../core/keys/cluster-keys.ts'
import type { ObjectStore } from '../../../core/ports/object-store.ts'
import { readGeneration } from '../../../core/reading/read-generation.ts'
import { readHead } from '../../../core/reading/read-head.ts'
import { CHUNKED_FILES, FILES } from '../../../core/render/files.ts'
import { fullRebuild } from '../../../core/render/full-rebuild.ts'
import { SNAPSHOT_SHAPE } from '../../../core/snapshot/keyspace.ts'
import type { TreeShape } from '../../../core/tree/tree-shape.ts'
import { createMemoryStore } from '../../../functions/adapters/storage/memory-store.ts'
import { added, app, coldContext, instantClock } from '../../support/contracts/cluster-apps.ts'
import { storedSnapshotEntries, upgradeEdit } from '../../support/stored-snapshot.ts'

const CLUSTER = 'prod-eu'
const keys = clusterKeys(CLUSTER)
const commit = (store: ObjectStore, events: Parameters<typeof commitEvents>[1]) =>
  commitEvents({ store, cluster: CLUSTER, options: {}, context: coldContext(), clock: instantClock() }, events)

/** A tree's leaves as earlier code cut them: its shape, and the entries a leaf held then, cut geometrically (a key alone ends a leaf). */
type Cut = [TreeShape, TreeShape['leafTarget']]

const largeValues =
  (large: number, small: number): TreeShape['leafTarget'] =>
  (key) =>
    /^(object|invalid|host|backend|gateway-status)\u0001/.test(key) ? large : small

/** Chunks of so many map lines, backend sections and crt-list lines. */
const chunks = (map: number, backend: number, crtList: number): Cut[] =>
  [...CHUNKED_FILES.keys()].map((path) => [fileShape(path)!, path === FILES.backends ? backend : path === FILES.crtList ? crtList : map])

/** A cluster committed by code that cut these trees' leaves otherwise. */
async function storedCut(objects: readonly unknown[], cuts: readonly Cut[]): Promise<ObjectStore> {
  const store = createMemoryStore()
  const now = cuts.map(([shape]) => ({ leafTarget: shape.leafTarget, leafSpread: shape.leafSpread }))
  for (const [shape, leafTarget] of cuts) Object.assign(shape, { leafTarget, leafSpread: undefined })
  try {
    await commit(store, objects.map(added))
  } finally {
    cuts.forEach(([shape], i) => Object.assign(shape, now[i]))
  }
  return store
}

describe.each([
  ['leaves held 4 large values or 32 small ones', [[SNAPSHOT_SHAPE, largeValues(4, 32)]] as Cut[]],
  ['leaves held 8 large values, map chunks 32 lines, backend chunks 4 sections', [[SNAPSHOT_SHAPE, largeValues(8, 64)], ...chunks(32, 4, 16)] as Cut[]],
  ['leaves held 16 large values, map chunks 128 lines, backend chunks 8 sections', [[SNAPSHOT_SHAPE, largeValues(16, 64)], ...chunks(128, 8, 64)] as Cut[]],
])('a cluster stored when %s', (_, cuts) => {
  it('is read and edited by this code, old leaves and new side by side: its entries equal a fresh commit, its files a full rebuild', async () => {
    const objects = Array.from({ length: 200 }, (_, n) => app(n)).flat()
    const store = await storedCut(objects, cuts)
    const { final, events } = upgradeEdit(objects)
    const result = await commit(store, events)
    expect(result.committed).toBe(true)

    expect(await readGeneration(store, CLUSTER, result.head!.manifest, coldContext())).toEqual(fullRebuild(final).files)
    const fresh = createMemoryStore()
    const freshly = await commit(fresh, final.map(added))
    expect(await storedSnapshotEntries(store, keys)).toEqual(await storedSnapshotEntries(fresh, keys))
    // Cut otherwise, the two trees differ where the edit did not reach: the old leaves were kept, not rewritten.
    const head = (await readHead(store, keys))!.head
    expect(head.snapshot.sha256).not.toBe((await readHead(fresh, keys))!.head.snapshot.sha256)
    if (cuts.length > 1) expect(head.manifest).not.toBe(freshly.head!.manifest)
  }, 30_000)
})
