import { describe, expect, it } from 'vitest'
import { commitEvents } from '../../../core/commit/commit-events.ts'
import { generationHistory } from '../../../core/fleet/generation-history.ts'
import { clusterKeys } from '../../../core/keys/cluster-keys.ts'
import { readGenerationRecord } from '../../../core/reading/generation-records.ts'
import type { WatchEvent } from '../../../core/incremental/watch-event.ts'
import { createMemoryStore } from '../../../functions/adapters/storage/memory-store.ts'
import { added, app, coldContext, instantClock, modified } from '../../support/contracts/cluster-apps.ts'
import { endpointSlice } from '../../support/objects.ts'

const CLUSTER = 'recorded'
const keys = clusterKeys(CLUSTER)

function cluster() {
  const store = createMemoryStore()
  const clock = instantClock()
  const commit = (events: WatchEvent[]) => commitEvents({ store, cluster: CLUSTER, options: {}, context: coldContext(), clock }, events)
  return { store, commit }
}

describe("a generation's record", () => {
  it('lists no runtime changes for a reload, which takes every file whole, and keeps them for a change HAProxy takes at runtime', async () => {
    const { store, commit } = cluster()
    const built = await commit([1, 2, 3].flatMap((n) => app(n)).map(added))
    // The engine's plan of a build lists every map entry it sets; HAProxy reloads all of them at once.
    expect(built.applied!.plan).toMatchObject({ reload: true, maps: expect.arrayContaining([expect.anything()]) })
    expect((await readGenerationRecord(store, keys, 1))!.plan).toMatchObject({ reload: true, maps: [], servers: [], certificates: [] })
    expect((await readGenerationRecord(store, keys, 1))!.plan.reasons).toEqual(built.applied!.plan.reasons)

    // New endpoints and a new path of an existing host: server slots and map entries, at runtime.
    await commit([modified(endpointSlice('app-1', ['10.9.0.1', '10.9.0.2'])), modified(app(2, ['/', '/v2'])[0])])
    const runtime = (await readGenerationRecord(store, keys, 2))!.plan
    expect(runtime.reload).toBe(false)
    expect(runtime.maps).not.toEqual([])
    expect(runtime.servers).not.toEqual([])

    const history = (await generationHistory(store, CLUSTER, coldContext(), { limit: 10 })).generations
    expect(history.map(({ generation, reload, runtime }) => ({ generation, reload, runtime }))).toEqual([
      { generation: 2, reload: false, runtime: { maps: runtime.maps.length, servers: runtime.servers.length, certificates: 0 } },
      { generation: 1, reload: true, runtime: { maps: 0, servers: 0, certificates: 0 } },
    ])
  })
})
