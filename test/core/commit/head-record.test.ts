import { describe, expect, it } from 'vitest'
import { clusterKeys } from '../../../core/keys/cluster-keys.ts'
import { collectGarbage } from '../../../core/garbage/collect-garbage.ts'
import { commitEvents } from '../../../core/commit/commit-events.ts'
import { readGenerationRecord } from '../../../core/reading/generation-records.ts'
import { release, rollback } from '../../../core/commit/pin.ts'
import { readHead } from '../../../core/reading/read-head.ts'
import { clusterOverview } from '../../../core/fleet/cluster-overview.ts'
import { generationDiff } from '../../../core/fleet/generation-diff.ts'
import { generationHistory } from '../../../core/fleet/generation-history.ts'
import type { WatchEvent } from '../../../core/incremental/watch-event.ts'
import { StorageError, type ObjectStore } from '../../../core/ports/object-store.ts'
import { createMemoryStore } from '../../../functions/adapters/storage/memory-store.ts'
import { faultyStore } from '../../support/store-faults.ts'
import { added, app, coldContext, instantClock, modified } from '../../support/contracts/cluster-apps.ts'

const CLUSTER = 'crashed'
const keys = clusterKeys(CLUSTER)

/**
 * A cluster whose process can "crash" right after a HEAD write: `crashAfterHead(n, step)` loses
 * generation n's record, as when the process dies between moving HEAD to n and writing
 * `generations/<n>`. Beside it, the same steps on a cluster that never crashes.
 */
function crashingCluster() {
  const store = createMemoryStore()
  let lost: string | undefined
  const dying = faultyStore(store, (operation, key) =>
    operation === 'put' && key === lost ? new StorageError('put', key, new Error('the process died')) : undefined,
  )
  const clock = instantClock()
  const commit = (events: WatchEvent[]) => commitEvents({ store: dying, cluster: CLUSTER, options: {}, context: coldContext(), clock }, events)
  const pins = () => ({ store: dying, cluster: CLUSTER, context: coldContext(), clock })
  const crashAfterHead = async <T>(generation: number, step: () => Promise<T>) => {
    lost = keys.generation(generation)
    try {
      return await step()
    } finally {
      lost = undefined
    }
  }
  return { store: store as ObjectStore, commit, pins, crashAfterHead }
}

function steadyCluster() {
  const store = createMemoryStore()
  const clock = instantClock()
  const commit = (events: WatchEvent[]) => commitEvents({ store, cluster: CLUSTER, options: {}, context: coldContext(), clock }, events)
  return { store: store as ObjectStore, commit, pins: () => ({ store, cluster: CLUSTER, context: coldContext(), clock }) }
}

/**
 * A generation's record as it can be compared: made again from the files, its plan holds the same
 * changes in another order; made from a HEAD that held commits since, it has HEAD's later revision.
 */
async function recordOf(store: ObjectStore, n: number) {
  const record = await readGenerationRecord(store, keys, n)
  if (!record) return record
  const { revision: _revision, ...rest } = record
  const sorted = <T>(items: T[]) => items.map((item) => JSON.stringify(item)).sort()
  return {
    ...rest,
    plan: { ...record.plan, maps: sorted(record.plan.maps), servers: sorted(record.plan.servers), certificates: sorted(record.plan.certificates) },
  }
}

const changedApp = () => [modified(app(1, ['/', '/v2'])[0]), ...app(2).map(added)]

describe('a generation whose record a crash kept from being written', () => {
  it('is in the history, the diff and the fleet overview at once, as its commit would have recorded it', async () => {
    const crashed = crashingCluster()
    const steady = steadyCluster()
    for (const cluster of [crashed, steady]) await cluster.commit(app(1).map(added))
    const lost = await crashed.crashAfterHead(2, () => crashed.commit(changedApp()))
    await steady.commit(changedApp())
    expect(lost.warnings).toEqual([expect.stringContaining('generation 2 is committed, but its record was not written')])
    expect(await readGenerationRecord(crashed.store, keys, 2)).toBeUndefined()

    const history = async (store: ObjectStore) => (await generationHistory(store, CLUSTER, coldContext(), { limit: 10 })).generations
    expect((await history(crashed.store)).map((summary) => summary.generation)).toEqual([2, 1])
    expect(await history(crashed.store)).toEqual(await history(steady.store))
    expect(await recordOf(crashed.store, 2)).toEqual(await recordOf(steady.store, 2))
    const diff = (store: ObjectStore) => generationDiff(store, CLUSTER, coldContext(), 1, 2)
    expect((await diff(crashed.store)).routes).not.toEqual([])
    expect(await diff(crashed.store)).toEqual(await diff(steady.store))
    const overview = (store: ObjectStore) => clusterOverview(store, CLUSTER, coldContext)
    expect(await overview(crashed.store)).toEqual(await overview(steady.store))
  })

  it('is recorded by the next commit before HEAD moves past it, so a rollback to it still works', async () => {
    const crashed = crashingCluster()
    const steady = steadyCluster()
    for (const cluster of [crashed, steady]) await cluster.commit(app(1).map(added))
    await crashed.crashAfterHead(2, () => crashed.commit(changedApp()))
    await steady.commit(changedApp())
    for (const cluster of [crashed, steady]) await cluster.commit(app(3).map(added))

    expect(await recordOf(crashed.store, 2)).toEqual(await recordOf(steady.store, 2))
    const rolled = await rollback(crashed.pins(), 2)
    expect(rolled.head).toMatchObject({ generation: 4, manifest: (await readGenerationRecord(steady.store, keys, 2))!.manifest, pin: { generation: 2 } })
  })

  it('is a rollback or a release: recorded with its origin by the next move of HEAD, or by the collector', async () => {
    const crashed = crashingCluster()
    const steady = steadyCluster()
    for (const cluster of [crashed, steady]) {
      await cluster.commit(app(1).map(added))
      await cluster.commit(app(2).map(added))
    }
    await crashed.crashAfterHead(3, () => rollback(crashed.pins(), 1)) // 3, pinned
    await rollback(steady.pins(), 1)
    for (const cluster of [crashed, steady]) await cluster.commit(app(3).map(added)) // held
    await crashed.crashAfterHead(4, () => release(crashed.pins())) // 4
    await release(steady.pins())
    expect((await readHead(crashed.store, keys))!.head).toEqual((await readHead(steady.store, keys))!.head)

    // The release recorded the rollback before it moved HEAD; the collector records the release.
    expect(await recordOf(crashed.store, 3)).toEqual(await recordOf(steady.store, 3))
    expect((await readGenerationRecord(crashed.store, keys, 3))!.origin).toEqual({ kind: 'rollback', to: 1 })
    expect(await readGenerationRecord(crashed.store, keys, 4)).toBeUndefined()
    await collectGarbage(crashed.store, CLUSTER, coldContext(), { keep: 1, graceMs: 0, clock: instantClock() })
    expect(await recordOf(crashed.store, 4)).toEqual(await recordOf(steady.store, 4))
    expect((await readGenerationRecord(crashed.store, keys, 4))!.origin).toEqual({ kind: 'release' })
  })
})
