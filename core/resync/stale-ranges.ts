import type { KeyRange } from '../reading/load-range.ts'
import type { FinishProgress } from './session.ts'

/** Above every object key (`Kind/ns/name`): the open end of the last range. */
export const END = '\uffff'

/** Listed keys sampled per page, to place the ranges the finish scans. */
const SAMPLES_PER_PAGE = 16

/** Every few listed keys of a page (sorted): where its keys lie, for rangeStarts. */
export function sampleOf(keys: readonly string[]): { stride: number; sample: string[] } {
  const stride = Math.max(1, Math.ceil(keys.length / SAMPLES_PER_PAGE))
  return { stride, sample: keys.filter((_, i) => i % stride === 0) }
}

/**
 * Where the object-key ranges the finish scans for stale objects begin: each holds about
 * `rangeKeys` listed keys, placed by the pages' samples, so a range's listed keys fit one
 * request's memory. Pages cut from a list sorted by key (as the forwarder sends them) meet one
 * or two ranges each, and each is read about once; pages in another order all meet every range.
 */
export function rangeStarts(samples: readonly { stride: number; sample: readonly string[] }[], rangeKeys: number): string[] {
  const weighted = samples.flatMap(({ stride, sample }) => sample.map((key) => [key, stride] as const)).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  const starts = ['']
  let keys = 0
  for (const [key, stride] of weighted) {
    if (keys >= rangeKeys && key > starts.at(-1)!) {
      starts.push(key)
      keys = 0
    }
    keys += stride
  }
  return starts
}

/** The ranges that begin at `starts`, the last open-ended. */
export const rangesOf = (starts: readonly string[]): KeyRange[] => starts.map((from, i) => [from, starts[i + 1] ?? END] as const)

/** The pages whose listed keys meet `[from, to)`. */
export function pagesMeeting(bounds: FinishProgress['bounds'], [from, to]: KeyRange): number[] {
  return bounds.flatMap((bound, page) => (bound && bound[0] < to && bound[1] >= from ? [page] : []))
}
