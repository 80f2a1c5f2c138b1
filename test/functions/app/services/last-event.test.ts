import { describe, expect, it } from 'vitest'
import { clusterKeys } from '../../../../core/keys/cluster-keys.ts'
import type { ObjectStore } from '../../../../core/ports/object-store.ts'
import { LAST_EVENT_RESOLUTION_MS, lastEventAt, touchLastEvent } from '../../../../functions/app/services/last-event.ts'
import { createMemoryStore } from '../../../../functions/adapters/storage/memory-store.ts'

/** A memory store that counts its puts, and fails them while `failing` is set. */
function countingStore() {
  const store = createMemoryStore()
  const counts = { puts: 0, failing: false }
  const counted: ObjectStore = {
    ...store,
    put: (key, body, condition) => {
      counts.puts++
      return counts.failing ? Promise.reject(new Error('disk full')) : store.put(key, body, condition)
    },
  }
  return { store: counted, counts }
}

const start = Date.parse('2026-12-04T12:00:00.000Z')
const at = (ms: number) => new Date(start + ms)

describe("a cluster's last event", () => {
  it('is stored once per resolution during a burst of writes, not beside every commit, and each cluster apart', async () => {
    const { store, counts } = countingStore()
    const [prod, staging] = [clusterKeys('prod'), clusterKeys('staging')]
    for (let ms = 0; ms < LAST_EVENT_RESOLUTION_MS; ms += LAST_EVENT_RESOLUTION_MS / 10) await touchLastEvent(store, prod, at(ms))
    await touchLastEvent(store, staging, at(1))
    expect(counts.puts).toBe(2)
    expect(await lastEventAt(store, prod)).toBe(at(0).toISOString())
    await touchLastEvent(store, prod, at(LAST_EVENT_RESOLUTION_MS))
    expect(await lastEventAt(store, prod)).toBe(at(LAST_EVENT_RESOLUTION_MS).toISOString())
    expect(await lastEventAt(store, staging)).toBe(at(1).toISOString())
  })

  it('is stored by the next event when storing it failed', async () => {
    const { store, counts } = countingStore()
    const keys = clusterKeys('prod')
    counts.failing = true
    await touchLastEvent(store, keys, at(0))
    counts.failing = false
    await touchLastEvent(store, keys, at(1))
    expect(await lastEventAt(store, keys)).toBe(at(1).toISOString())
  })
})
