import { describe, expect, it } from 'vitest'
import { commitEvents } from '../../../core/commit/commit-events.ts'
import { fileShape } from '../../../core/generation/file-shapes.ts'
import { MANIFEST_SHAPE } from '../../../core/generation/manifest.ts'
import { clusterKeys } from '../../../core/keys/cluster-keys.ts'
import type { ObjectStore } from '../../../core/ports/object-store.ts'
import { readGeneration } from '../../../core/reading/read-generation.ts'
import { CHUNKED_FILES } from '../../../core/render/files.ts'
import { fullRebuild } from '../../../core/render/full-rebuild.ts'
import { SNAPSHOT_SHAPE } from '../../../core/snapshot/keyspace.ts'
import { isCompressedBody, nodeText } from '../../../core/tree/node-body.ts'
import type { TreeShape } from '../../../core/tree/tree-shape.ts'
import { createMemoryStore } from '../../../functions/adapters/storage/memory-store.ts'
import { added, app, coldContext, instantClock } from '../../support/contracts/cluster-apps.ts'
import { storedSnapshotEntries, upgradeEdit } from '../../support/stored-snapshot.ts'

const CLUSTER = 'prod-eu'
const keys = clusterKeys(CLUSTER)
const commit = (store: ObjectStore, events: Parameters<typeof commitEvents>[1]) =>
  commitEvents({ store, cluster: CLUSTER, options: {}, context: coldContext(), clock: instantClock() }, events)

/** How the code before gzip and 16-child nodes cut its trees: children per internal node of each tree. */
const BEFORE: [TreeShape, number][] = [
  [SNAPSHOT_SHAPE, 32],
  [MANIFEST_SHAPE, 64],
  ...[...CHUNKED_FILES.keys()].map((path): [TreeShape, number] => [fileShape(path)!, 64]),
]

/** A cluster committed as that code stored it: trees cut to its fan-outs, every node's text stored as it is. */
async function storedBeforeTheUpgrade(objects: readonly unknown[]): Promise<ObjectStore> {
  const store = createMemoryStore()
  const now = BEFORE.map(([shape]) => shape.branchTarget)
  for (const [shape, branchTarget] of BEFORE) shape.branchTarget = branchTarget
  try {
    await commit(store, objects.map(added))
  } finally {
    BEFORE.forEach(([shape], i) => (shape.branchTarget = now[i]!))
  }
  for await (const { key } of store.list(keys.root)) {
    const body = (await store.get(key))!.body
    if (isCompressedBody(body)) await store.put(key, await nodeText(body))
  }
  return store
}

describe('a cluster stored before node bodies were gzipped and nodes held 16 children', () => {
  it('is read, edited and read again by this code, equal to a full rebuild of its objects, old nodes and new side by side', async () => {
    const objects = Array.from({ length: 200 }, (_, n) => app(n)).flat()
    const store = await storedBeforeTheUpgrade(objects)
    const plainBefore = new Set<string>()
    for await (const { key } of store.list(keys.root)) if (!key.endsWith('HEAD') && !key.includes('/generations/')) plainBefore.add(key)

    const { final, events } = upgradeEdit(objects)
    const result = await commit(store, events)
    expect(result.committed).toBe(true)

    const files = await readGeneration(store, CLUSTER, result.head!.manifest, coldContext())
    expect(files).toEqual(fullRebuild(final).files)
    const fresh = createMemoryStore()
    await commit(fresh, final.map(added))
    expect(await storedSnapshotEntries(store, keys)).toEqual(await storedSnapshotEntries(fresh, keys))

    // The edit kept most old nodes (text, as they were stored) and wrote its own gzipped.
    let kept = 0
    let gzipped = 0
    for await (const { key } of store.list(keys.root)) {
      if (plainBefore.has(key)) kept++
      else if (!key.endsWith('HEAD') && !key.includes('/generations/') && isCompressedBody((await store.get(key))!.body)) gzipped++
    }
    expect(kept).toBe(plainBefore.size)
    expect(gzipped).toBeGreaterThan(0)
  }, 30_000)
})
