import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { utf8Length } from '../../../core/tree/tree-shape.ts'
import { runs } from '../../support/property-runs.ts'

const encoder = new TextEncoder()

describe('utf8Length', () => {
  it('is the length TextEncoder gives, for ASCII text and for text with characters of two, three and four bytes', () => {
    const text = fc.oneof(fc.string({ unit: 'binary-ascii' }), fc.string({ unit: 'grapheme' }), fc.string({ unit: fc.constantFrom('a', 'é', '€', '😀', '\n') }))
    fc.assert(
      fc.property(text, (value) => {
        expect(utf8Length(value)).toBe(encoder.encode(value).length)
      }),
      { numRuns: runs(2000) },
    )
  })
})
