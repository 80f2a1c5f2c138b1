import { kindRank } from '../kube/kind-order.ts'
import type { FinishProgress } from './session.ts'

/** The kind an object key (`Kind/ns/name`) names. */
const kindOf = (key: string) => key.slice(0, key.indexOf('/'))

/**
 * The order a finish applies its pages in: by the kinds they list, in KIND_ORDER (a page's keys
 * are sorted, so the kinds between its first and last key are all it may hold; it goes with the
 * earliest of its two ends), then by first key. The forwarder sends pages cut from the list in key
 * order, where Ingresses come before the Secrets and Services they name.
 */
export function pageOrder(bounds: FinishProgress['bounds']): number[] {
  const rank = (page: number) => {
    const listed = bounds[page]
    return listed ? Math.min(kindRank(kindOf(listed[0])), kindRank(kindOf(listed[1]))) : -1
  }
  const first = (page: number) => bounds[page]?.[0] ?? ''
  return bounds.map((_, page) => page).sort((a, b) => rank(a) - rank(b) || (first(a) < first(b) ? -1 : first(a) > first(b) ? 1 : a - b))
}
