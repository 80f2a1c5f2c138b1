import { describe, expect, it } from 'vitest'
import { commitEvents, type CommitContext } from '../../../core/commit/commit-events.ts'
import { readGeneration } from '../../../core/reading/read-generation.ts'
import { sha256Text } from '../../../core/hash.ts'
import { statusOfHead } from '../../../core/status/status-of-head.ts'
import { createMemoryStore } from '../../../functions/adapters/storage/memory-store.ts'
import { added, app, coldContext, instantClock } from '../../support/contracts/cluster-apps.ts'
import { ingress, ingressClass } from '../../support/objects.ts'

const utf8Bytes = (text: string) => new TextEncoder().encode(text).length

describe('statusOfHead', () => {
  it("names every committed file by the sha256 and size of what a reader gets, every rejection in the cluster, and the generation record's plan and time", async () => {
    const store = createMemoryStore()
    const ctx: CommitContext = { store, cluster: 'prod-eu', options: {}, context: coldContext(), clock: instantClock() }
    const objects = [ingressClass('hapedge', true), ...Array.from({ length: 150 }, (_, i) => app(i)).flat()]
    await commitEvents(ctx, objects.map(added))
    const bad = ingress({ name: 'bad', rules: [{ host: 'under_score.example.com', paths: [{ service: 'app-1' }] }] })
    const committed = await commitEvents(ctx, [added(bad)])
    const head = committed.head!

    const status = await statusOfHead({ ...ctx, context: coldContext() }, head, [], new Date('2030-01-01T00:00:00Z'))
    const files = await readGeneration(store, 'prod-eu', head.manifest, coldContext())
    expect(status).toMatchObject({
      generation: head.generation,
      manifest: head.manifest,
      fileCount: files.size,
      committedAt: '2026-12-03T00:00:00.000Z',
      reload: committed.applied!.plan.reload,
    })
    for (const file of status.files) {
      const text = files.get(file.path)!
      expect(file.size, file.path).toBe(utf8Bytes(text))
      if (!file.chunked) expect(file.sha256, file.path).toBe(sha256Text(text))
    }
    expect(status.files.some((file) => file.chunked)).toBe(true)
    expect(status.rejected).toEqual([expect.objectContaining({ object: 'Ingress default/bad' })])
  })
})
