import { describe, expect, it } from 'vitest'
import { commitEvents } from '../../../core/commit/commit-events.ts'
import { clusterKeys } from '../../../core/keys/cluster-keys.ts'
import type { ObjectStore } from '../../../core/ports/object-store.ts'
import { readGeneration } from '../../../core/reading/read-generation.ts'
import { readHead } from '../../../core/reading/read-head.ts'
import { fullRebuild } from '../../../core/render/full-rebuild.ts'
import { SNAPSHOT_SHAPE } from '../../../core/snapshot/keyspace.ts'
import { createMemoryStore } from '../../../functions/adapters/storage/memory-store.ts'
import { added, app, coldContext, instantClock } from '../../support/contracts/cluster-apps.ts'
import { storedSnapshotEntries, upgradeEdit } from '../../support/stored-snapshot.ts'

const CLUSTER = 'prod-eu'
const keys = clusterKeys(CLUSTER)
const commit = (store: ObjectStore, events: Parameters<typeof commitEvents>[1]) =>
  commitEvents({ store, cluster: CLUSTER, options: {}, context: coldContext(), clock: instantClock() }, events)

/** How the code before cut the snapshot's leaves: 4 objects, hosts or backends a leaf, 32 smaller entries. */
const leavesBefore: typeof SNAPSHOT_SHAPE.leafTarget = (key) => (/^(object|invalid|host|backend)\u0001/.test(key) ? 4 : 32)

async function storedWithLeavesBefore(objects: readonly unknown[]): Promise<ObjectStore> {
  const store = createMemoryStore()
  const now = SNAPSHOT_SHAPE.leafTarget
  SNAPSHOT_SHAPE.leafTarget = leavesBefore
  try {
    await commit(store, objects.map(added))
  } finally {
    SNAPSHOT_SHAPE.leafTarget = now
  }
  return store
}

describe('a snapshot stored when leaves held 4 large values or 32 small ones', () => {
  it('is read and edited by this code, old leaves and new side by side: its entries equal a fresh commit, its files a full rebuild', async () => {
    const objects = Array.from({ length: 200 }, (_, n) => app(n)).flat()
    const store = await storedWithLeavesBefore(objects)
    const { final, events } = upgradeEdit(objects)
    const result = await commit(store, events)
    expect(result.committed).toBe(true)

    expect(await readGeneration(store, CLUSTER, result.head!.manifest, coldContext())).toEqual(fullRebuild(final).files)
    const fresh = createMemoryStore()
    await commit(fresh, final.map(added))
    expect(await storedSnapshotEntries(store, keys)).toEqual(await storedSnapshotEntries(fresh, keys))
    // Cut otherwise, the two trees differ where the edit did not reach: the old leaves were kept, not rewritten.
    expect((await readHead(store, keys))!.head.snapshot.sha256).not.toBe((await readHead(fresh, keys))!.head.snapshot.sha256)
  }, 30_000)
})
