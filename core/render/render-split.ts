import type { HostConfig, Route } from '../model/derive-host.ts'
import { MOST_SPLIT_BACKENDS, SPLIT_RULE, type RouteSplit } from '../model/route-split.ts'
import { FILES } from './files.ts'
import { routeValueEntries, routeValueLookup, type SetVar, type AddEntry } from './route-keys.ts'

/**
 * Weighted splits at request time. A split route's value in the split maps is
 * `total|backend1|bound1|backend2|bound2|…`, each bound the sum of the weights up to its backend:
 * the frontend draws a number in [0, total) and takes the first backend whose bound is above it.
 * Weights are data HAProxy reads per request, so a changed weight, or a Service added to or taken
 * from a split, is a runtime map edit (a Service HAProxy has no backend for yet is a reload, as
 * for any route); the frontend's rules are the same for every split, one per place up to
 * MOST_SPLIT_BACKENDS, and are written only while some route splits.
 */

export type SplitMap = typeof FILES.splitExactMap | typeof FILES.splitPrefixMap

const SPLIT_MAPS = { exact: FILES.splitExactMap, prefix: FILES.splitPrefixMap } as const

/** Between the fields of a split's value: no backend name or number holds it. */
const SEPARATOR = '|'

/** The value of a route without a split on a host where some route has one: no split's total is so. */
const NONE = 'none'

export function splitValue({ backends }: RouteSplit): string {
  let bound = 0
  const fields = backends.flatMap(({ backendName, weight }) => {
    bound += weight
    return [backendName, bound]
  })
  return [bound, ...fields].join(SEPARATOR)
}

/** The split map entries of one host: every route of a host with a split has one, so a longer path never takes a shorter one's split. */
export function splitEntries(config: HostConfig, add: AddEntry<SplitMap>): void {
  routeValueEntries(add, config.host, config.routes, SPLIT_MAPS, splitOf, NONE)
}

function splitOf(route: Route): string | undefined {
  return route.split && splitValue(route.split)
}

/**
 * In the frontend, once the route's backend is known: its split looked up as the backend was, a
 * draw in [0, total) (`rand` is 32 bits, so the modulo's bias is below total / 2^32), and for
 * each place the backend taken when the draw is below its bound and no earlier place took it.
 * The last backend's bound is the total, so a draw always ends at a backend that is there.
 */
export function splitRules(set: SetVar, rules: readonly string[]): string[] {
  if (!rules.includes(SPLIT_RULE)) return []
  const field = (n: number) => `var(txn.split),field(${n},${SEPARATOR})`
  const open = '{ var(txn.split) -m found } !{ var(txn.splitpick) -m found }'
  const places = Array.from({ length: MOST_SPLIT_BACKENDS }, (_, i) => [
    set('splitbound', field(2 * i + 3), `if ${open}`),
    set('splitpick', field(2 * i + 2), `if ${open} { var(txn.splitdraw),sub(txn.splitbound) -m int lt 0 }`),
  ])
  return [
    ...routeValueLookup(set, 'split', SPLIT_MAPS),
    `    http-request unset-var(txn.split) if { var(txn.split) -m str ${NONE} }`,
    set('splittotal', field(1), 'if { var(txn.split) -m found }'),
    set('splitdraw', 'rand,mod(txn.splittotal)', 'if { var(txn.split) -m found }'),
    ...places.flat(),
    set('backend', 'var(txn.splitpick)', 'if { var(txn.splitpick) -m found }'),
  ]
}
