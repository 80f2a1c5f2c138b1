import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { ListReader, listedStates } from '../../../core/ingest/listed-state.ts'
import { syntheticCluster } from '../../../bench/synthetic-cluster.ts'
import { seededRandom } from '../../../bench/random.ts'
import { runs } from '../../support/property-runs.ts'

describe('ListReader', () => {
  it('takes the states listedStates takes, each item kept as its text and parsed again when asked for', () => {
    const objects = syntheticCluster(20, seededRandom(3)) as Record<string, unknown>[]
    fc.assert(
      fc.property(fc.shuffledSubarray(objects), fc.array(fc.nat(), { maxLength: 5 }), (picked, repeats) => {
        // Some items listed twice, changed the second time: the last at each key wins.
        const items = [
          ...picked,
          ...repeats
            .filter((i) => i < picked.length)
            .map((i) => ({ ...picked[i]!, metadata: { ...(picked[i]!.metadata as object), resourceVersion: `${i}` } })),
        ]
        const reader = new ListReader({})
        for (const item of items) reader.read(JSON.parse(JSON.stringify(item)) as Record<string, unknown>, JSON.stringify(item))
        const read = reader.states()
        const expected = listedStates(items, {})
        expect(read.map(({ key, object, invalid, version }) => ({ key, object, invalid, version }))).toEqual(
          expected.map(({ key, object, invalid, version }) => ({ key, object, invalid, version })),
        )
        expect(read.map((state) => state.item)).toEqual(expected.map((state) => state.item))
      }),
      { numRuns: runs(30) },
    )
  })
})
