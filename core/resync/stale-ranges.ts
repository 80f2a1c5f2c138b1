import type { KeyRange } from '../reading/load-range.ts'
import type { FinishProgress } from './session.ts'

/** Above every object key (`Kind/ns/name`): the open end of the last range. */
export const END = '\uffff'

/**
 * The object-key ranges the finish scans for stale objects, cut at each page's first key: a
 * forwarder cuts its pages from a list sorted by key, so each range meets one page, and the
 * listed keys a range needs are one page's (pages in another order still work, reading more).
 */
export function staleRanges(bounds: FinishProgress['bounds']): KeyRange[] {
  const starts = [...new Set(bounds.flatMap((bound) => (bound ? [bound[0]] : [])))].sort()
  starts[0] = ''
  return starts.map((from, i) => [from, starts[i + 1] ?? END] as const)
}

/** The pages whose listed keys meet `[from, to)`. */
export function pagesMeeting(bounds: FinishProgress['bounds'], [from, to]: KeyRange): number[] {
  return bounds.flatMap((bound, page) => (bound && bound[0] < to && bound[1] >= from ? [page] : []))
}
