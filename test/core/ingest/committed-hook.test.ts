import { describe, expect, it } from 'vitest'
import { ingest } from '../../../core/ingest/ingest.ts'
import { clusterKeys } from '../../../core/keys/cluster-keys.ts'
import type { ObjectStore } from '../../../core/ports/object-store.ts'
import { readHead } from '../../../core/reading/read-head.ts'
import { createMemoryStore } from '../../../functions/adapters/storage/memory-store.ts'
import { added, app, coldContext, modified } from '../../support/contracts/cluster-apps.ts'
import { eventually } from '../../support/eventually.ts'

describe('a write tells of the generation it made current', () => {
  it('once per write that changed something, with the generation HEAD names by then; and not when the events change nothing', async () => {
    const store = createMemoryStore()
    const told: { generation: number; manifest: string; head?: Promise<string | undefined> }[] = []
    const ctx = {
      store,
      cluster: 'c',
      options: {},
      context: coldContext(),
      committed: (head: { generation: number; manifest: string }) =>
        void told.push({ ...head, head: readHead(store, clusterKeys('c')).then((read) => read?.head.manifest) }),
    }
    const answer = await ingest(ctx, app(1).map(added))
    expect(told.map(({ generation, manifest }) => ({ generation, manifest }))).toEqual([{ generation: answer.generation, manifest: answer.manifest }])
    expect(await told[0]!.head).toBe(answer.manifest)

    const changed = await ingest(ctx, [modified(app(1, ['/', '/v2'])[0])])
    expect(told.at(-1)).toMatchObject({ generation: changed.generation, manifest: changed.manifest })
    // The same object again: nothing committed, nobody told.
    await ingest(ctx, [modified(app(1, ['/', '/v2'])[0])])
    expect(told).toHaveLength(2)
  })
})

describe('a write tells of its generation before it writes its record', () => {
  it('while the record is still being written (agents need HEAD, not the history), and only once for a write in several commits', async () => {
    const memory = createMemoryStore()
    let release!: () => void
    const recordHeld = new Promise<void>((resolve) => (release = resolve))
    const keys = clusterKeys('c')
    // The record of generation 2 hangs until released: the hook must not wait for it.
    const store: ObjectStore = {
      ...memory,
      put: async (key, body, condition) => {
        if (key === keys.generation(2)) await recordHeld
        return memory.put(key, body, condition)
      },
    }
    const told: number[] = []
    const ctx = { store, cluster: 'c', options: {}, context: coldContext(), committed: ({ generation }: { generation: number }) => void told.push(generation) }
    await ingest(ctx, app(1).map(added))
    const writing = ingest(ctx, [modified(app(1, ['/', '/v2'])[0])])
    await eventually('the hook told of generation 2', () => told.includes(2))
    expect(await memory.get(keys.generation(2))).toBeUndefined()
    release()
    expect((await writing).generation).toBe(2)
    // Three commits of one request (chunks of one event): told once, of the last.
    const chunked = await ingest(ctx, app(3).slice(0, 3).map(added), 1)
    expect(chunked.generation).toBe(5)
    expect(told).toEqual([1, 2, 5])
  })
})
