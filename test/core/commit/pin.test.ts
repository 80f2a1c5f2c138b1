import { describe, expect, it } from 'vitest'
import { clusterKeys } from '../../../core/keys/cluster-keys.ts'
import { collectGarbage } from '../../../core/garbage/collect-garbage.ts'
import { commitEvents } from '../../../core/commit/commit-events.ts'
import { NotPinned } from '../../../core/commit/errors.ts'
import { UnknownGeneration } from '../../../core/reading/errors.ts'
import { readGenerationRecord } from '../../../core/reading/generation-records.ts'
import { release, rollback } from '../../../core/commit/pin.ts'
import { readGeneration } from '../../../core/reading/read-generation.ts'
import { readHead } from '../../../core/reading/read-head.ts'
import { fullRebuild } from '../../../core/render/full-rebuild.ts'
import type { WatchEvent } from '../../../core/incremental/watch-event.ts'
import { createMemoryStore } from '../../../functions/adapters/storage/memory-store.ts'
import { added, app, coldContext, instantClock, modified } from '../../support/contracts/cluster-apps.ts'

const CLUSTER = 'pinned'
const keys = clusterKeys(CLUSTER)

function cluster() {
  const store = createMemoryStore()
  const clock = instantClock()
  const context = coldContext()
  const commit = (events: WatchEvent[]) => commitEvents({ store, cluster: CLUSTER, options: {}, context, clock }, events)
  const pins = { store, cluster: CLUSTER, context, clock }
  const served = async () => (await readHead(store, keys))!.head
  const files = async (manifest: string) => readGeneration(store, CLUSTER, manifest, coldContext())
  return { store, clock, commit, pins, served, files }
}

const asRebuilt = (objects: unknown[]) => Object.fromEntries(fullRebuild(objects).files)

describe('rollback and release', () => {
  it('rolls back to an earlier generation as a new one with its content, holds later events while pinned, and serves them on release', async () => {
    const { commit, pins, served, files, store } = cluster()
    const base = [...app(1), ...app(2)]
    await commit(base.map(added)) // generation 1
    const second = app(2, ['/', '/v2'])[0]!
    await commit([modified(second)]) // generation 2
    const third = app(3)
    await commit(third.map(added)) // generation 3
    const one = (await readGenerationRecord(store, keys, 1))!
    const [before, after] = [await files((await served()).manifest), await files(one.manifest)]
    const differing = [...new Set([...before.keys(), ...after.keys()])].filter((path) => before.get(path) !== after.get(path)).sort()

    const rolled = await rollback(pins, 1)
    expect(rolled.head).toMatchObject({ generation: 4, manifest: one.manifest, snapshot: one.snapshot, pin: { generation: 1, held: 0 } })
    expect(rolled.changed).toBe(true)
    expect(rolled.files).toEqual(differing)
    expect(Object.fromEntries(await files((await served()).manifest))).toEqual(asRebuilt(base))
    expect((await readGenerationRecord(store, keys, 4))!.origin).toEqual({ kind: 'rollback', to: 1 })

    // An event while pinned is applied and kept, but generation 4 stays served.
    const fourth = app(4)
    const held = await commit(fourth.map(added))
    expect(held).toMatchObject({ committed: true, held: true })
    expect(await served()).toMatchObject({ generation: 4, manifest: one.manifest, pin: { generation: 1, held: 1 } })
    expect(await readGenerationRecord(store, keys, 5)).toBeUndefined()

    // Garbage collection while pinned keeps what the release will serve.
    await collectGarbage(store, CLUSTER, coldContext(), { keep: 1, graceMs: 0, clock: pins.clock })

    const released = await release(pins)
    expect(released.head.pin).toBeUndefined()
    expect(released.head.generation).toBe(5)
    expect(released.plan.reload).toBe(true)
    expect(Object.fromEntries(await files(released.head.manifest))).toEqual(asRebuilt([...base.slice(0, 3), second, ...base.slice(4), ...third, ...fourth]))
    expect((await readGenerationRecord(store, keys, 5))!.origin).toEqual({ kind: 'release' })

    // Unpinned again: the next event makes the next generation.
    expect((await commit(app(5).map(added))).head).toMatchObject({ generation: 6, parent: released.head.manifest })
  })

  it('plans a rollback that only moves map entries and server slots for the runtime API, without a reload', async () => {
    const { commit, pins } = cluster()
    const objects = app(1, ['/', '/a'])
    await commit(objects.map(added))
    await commit([modified(app(1, ['/', '/a', '/b'])[0])])
    const rolled = await rollback(pins, 1)
    expect(rolled.plan.reload).toBe(false)
    expect(rolled.plan.maps.length).toBeGreaterThan(0)
    expect(rolled.files.every((path) => path.startsWith('maps/'))).toBe(true)
  })

  it('pins without a new generation when rolled back to what is served, and a release with nothing held serves nothing new', async () => {
    const { commit, pins, served } = cluster()
    await commit(app(1).map(added))
    const rolled = await rollback(pins, 1)
    expect(rolled).toMatchObject({ changed: false, head: { generation: 1, pin: { generation: 1 } } })
    const released = await release(pins)
    expect(released).toMatchObject({ changed: false, head: { generation: 1 } })
    expect((await served()).pin).toBeUndefined()
  })

  it('refuses a generation it does not retain, a cluster with none, and a release of a cluster that is not pinned', async () => {
    const { commit, pins } = cluster()
    await expect(rollback(pins, 1)).rejects.toBeInstanceOf(UnknownGeneration)
    await commit(app(1).map(added))
    await expect(rollback(pins, 7)).rejects.toThrow(/retains no generation 7/)
    await expect(release(pins)).rejects.toBeInstanceOf(NotPinned)
  })

  it('a second rollback while pinned keeps the changes the first one held', async () => {
    const { commit, pins, served, files } = cluster()
    await commit(app(1).map(added)) // 1
    await commit(app(2).map(added)) // 2
    await rollback(pins, 1) // 3 (= 1)
    await commit(app(3).map(added)) // held
    await rollback(pins, 2) // 4 (= 2)
    expect(await served()).toMatchObject({ generation: 4, pin: { generation: 2, held: 1 } })
    const released = await release(pins)
    expect(Object.fromEntries(await files(released.head.manifest))).toEqual(asRebuilt([...app(1), ...app(2), ...app(3)]))
  })
})
