import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { sortFew } from '../../core/sort-few.ts'
import { compareText } from '../../core/compare-text.ts'

describe('sortFew', () => {
  it('orders as Array.prototype.sort does, stably, below and above the length it hands to sort', () => {
    // Items equal by their key keep their order: the index tells them apart.
    const items = fc.array(fc.record({ key: fc.constantFrom('a', 'b', 'c', 'ab', ''), index: fc.nat() }), { maxLength: 40 })
    fc.assert(
      fc.property(items, (list) => {
        const byKey = (a: { key: string }, b: { key: string }) => compareText(a.key, b.key)
        const expected = [...list].sort(byKey)
        const sorted = [...list]
        expect(sortFew(sorted, byKey)).toBe(sorted)
        expect(sorted).toEqual(expected)
      }),
    )
  })

  it('compares text by code units, as sort() without a comparison does', () => {
    const words = ['b', 'B', 'a', 'é', 'Z', '', 'aa', '\u{1f600}', '\uffff']
    expect(sortFew([...words], compareText)).toEqual([...words].sort())
  })
})
