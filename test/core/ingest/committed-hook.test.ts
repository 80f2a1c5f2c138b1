import { describe, expect, it } from 'vitest'
import { ingest } from '../../../core/ingest/ingest.ts'
import { clusterKeys } from '../../../core/keys/cluster-keys.ts'
import { readHead } from '../../../core/reading/read-head.ts'
import { createMemoryStore } from '../../../functions/adapters/storage/memory-store.ts'
import { added, app, coldContext, modified } from '../../support/contracts/cluster-apps.ts'

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
