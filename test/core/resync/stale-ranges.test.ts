import { describe, expect, it } from 'vitest'
import { END, pagesMeeting, rangesOf, rangeStarts, sampleOf } from '../../../core/resync/stale-ranges.ts'

const keys = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => `Service/default/s${String(from + i).padStart(5, '0')}`)

describe('the key ranges of the finish’s stale scan', () => {
  it('hold about rangeKeys listed keys each, and cover every key once from the first range’s open start to END', () => {
    const pages = [keys(0, 1000), keys(1000, 2000), keys(2000, 2500)]
    const starts = rangeStarts(pages.map(sampleOf), 400)
    const ranges = rangesOf(starts)
    expect(ranges[0]![0]).toBe('')
    expect(ranges.at(-1)![1]).toBe(END)
    const counts = ranges.map(([from, to]) => pages.flat().filter((key) => key >= from && key < to).length)
    expect(counts.reduce((a, b) => a + b)).toBe(2500)
    // A range ends at a sampled key once it holds rangeKeys: never more than rangeKeys plus one sample's stride.
    expect(Math.max(...counts)).toBeLessThanOrEqual(400 + Math.ceil(1000 / 16))
    expect(ranges.length).toBeGreaterThanOrEqual(Math.floor(2500 / (400 + 63)))
  })

  it('pages cut from a sorted list meet one or two ranges each; pages in another order meet them all', () => {
    const sorted = [keys(0, 1000), keys(1000, 2000), keys(2000, 3000)]
    const boundsOf = (pages: string[][]) => pages.map((page) => [page[0]!, page.at(-1)!] as [string, string])
    const ranges = rangesOf(rangeStarts(sorted.map(sampleOf), 500))
    const meetings = ranges.map((range) => pagesMeeting(boundsOf(sorted), range).length)
    expect(Math.max(...meetings)).toBeLessThanOrEqual(2)
    const dealt = [0, 1, 2].map((page) => sorted.flat().filter((_, i) => i % 3 === page))
    const shuffled = rangesOf(rangeStarts(dealt.map(sampleOf), 500)).map((range) => pagesMeeting(boundsOf(dealt), range).length)
    expect(shuffled.every((count) => count === 3)).toBe(true)
  })

  it('a page that lists nothing meets no range; with no key listed there is one range, everything', () => {
    expect(pagesMeeting([null, ['a', 'b']], ['', END])).toEqual([1])
    expect(rangesOf(rangeStarts([sampleOf([])], 10))).toEqual([['', END]])
  })
})
