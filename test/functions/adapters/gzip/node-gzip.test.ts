import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { nodeBody, nodeText, webGzip } from '../../../../core/tree/node-body.ts'
import { nodeGzip } from '../../../../functions/adapters/gzip/node-gzip.ts'
import { runs } from '../../../support/property-runs.ts'

const encoder = new TextEncoder()
const asBytes = (body: Uint8Array | string) => (typeof body === 'string' ? encoder.encode(body) : body)

describe('nodeGzip', () => {
  it('reads what the Web standard streams stored and stores what they read (a Worker and a Node server share a bucket)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'grapheme', minLength: 1 }), fc.integer({ min: 1, max: 60 }), async (line, times) => {
        const text = line.repeat(times)
        expect(await nodeText(asBytes(await nodeBody(text, webGzip)), nodeGzip)).toBe(text)
        expect(await nodeText(asBytes(await nodeBody(text, nodeGzip)), webGzip)).toBe(text)
      }),
      { numRuns: runs(50) },
    )
  })
})
