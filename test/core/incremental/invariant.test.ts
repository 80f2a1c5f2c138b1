import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { fullRebuild } from '../../../core/full-rebuild.ts'
import { cutLayout } from '../../../core/generation/cut-layout.ts'
import { GenerationBuilder } from '../../../core/generation/generation-builder.ts'
import { IncrementalCluster } from '../../../core/incremental/incremental-cluster.ts'
import { nodeSha256 } from '../../../functions/node/sha256.ts'
import type { WatchEvent } from '../../../core/incremental/watch-event.ts'
import { arbitraryObject, identityOf } from '../../support/arbitrary-objects.ts'

type AnyObject = Parameters<typeof identityOf>[0] & Record<string, unknown>

/** A step: put an object (ADDED or MODIFIED), or delete the n-th object currently in the cluster. */
const arbitraryStep = fc.oneof(
  { weight: 3, arbitrary: arbitraryObject.map((object) => ({ put: object as AnyObject })) },
  { weight: 1, arbitrary: fc.nat().map((pick) => ({ deletePick: pick })) },
)

const chunkTexts = (files: ReadonlyMap<string, readonly { text: string }[]>) => [...files].sort(([a], [b]) => (a < b ? -1 : 1)).map(([path, chunks]) => [path, chunks.map((chunk) => chunk.text)])

describe('the incremental path equals the full rebuild', () => {
  it('for any sequence of events, in any batching: files (chunk by chunk), model, rejections and the generation root', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(arbitraryStep, { maxLength: 60 }), fc.array(fc.integer({ min: 1, max: 6 }), { minLength: 1 }), async (steps, batchSizes) => {
        const cluster = new IncrementalCluster()
        const live = new Map<string, AnyObject>()
        const events: WatchEvent[] = []
        for (const step of steps) {
          if ('put' in step) {
            const id = identityOf(step.put)
            events.push({ type: live.has(id) ? 'MODIFIED' : 'ADDED', object: step.put })
            live.set(id, step.put)
          } else if (live.size > 0) {
            const id = [...live.keys()][step.deletePick % live.size]!
            events.push({ type: 'DELETED', object: live.get(id)! })
            live.delete(id)
          }
        }
        const builder = new GenerationBuilder(nodeSha256)
        await builder.build(cluster.files())
        let generation
        for (let i = 0, b = 0; i < events.length; b++) {
          const size = batchSizes[b % batchSizes.length]!
          const result = cluster.apply(events.slice(i, i + size))
          generation = await builder.build(cluster.files(), result.files)
          i += size
        }
        const reference = fullRebuild(live.values())
        expect(chunkTexts(cluster.files())).toEqual(chunkTexts(cutLayout(reference.layout)))
        expect(cluster.rejections()).toEqual(reference.model.rejections)
        const model = cluster.model()
        expect(new Map([...model.hosts].sort())).toEqual(new Map([...reference.model.hosts].sort()))
        expect(new Map([...model.backends].sort())).toEqual(new Map([...reference.model.backends].sort()))
        expect(model.defaultBackend).toEqual(reference.model.defaultBackend)
        if (generation) {
          const full = await new GenerationBuilder().build(cutLayout(reference.layout))
          expect(generation.root.text).toBe(full.root.text)
        }
      }),
      { numRuns: 400 },
    )
  })
})
