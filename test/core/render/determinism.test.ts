import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { fullRebuild } from '../../../core/render/full-rebuild.ts'
import { arbitraryCluster } from '../../support/arbitrary-objects.ts'
import { runs } from '../../support/property-runs.ts'

describe('rendering is deterministic', () => {
  it('gives byte-identical files and rejections for the same objects in any order', () => {
    fc.assert(
      fc.property(arbitraryCluster, fc.func(fc.integer()), (objects, rank) => {
        const shuffled = objects
          .map((object, i) => ({ object, key: rank(i) }))
          .sort((a, b) => a.key - b.key)
          .map(({ object }) => object)
        const first = fullRebuild(objects)
        const second = fullRebuild(shuffled)
        expect([...second.files]).toEqual([...first.files])
        expect(second.model.rejections).toEqual(first.model.rejections)
      }),
      { numRuns: runs(300) },
    )
  })
})
