import type { HostConfig, Route } from '../model/derive-host.ts'
import type { RouteTimeouts } from '../model/route-timeouts.ts'
import { FILES } from './files.ts'
import { routeValueEntries, routeValueLookup, type SetVar, type AddEntry } from './route-keys.ts'

/**
 * Per-route timeouts (timeout-server, timeout-tunnel): map values HAProxy reads at request time
 * and applies with `set-timeout`, so a change is a runtime map edit; the rules only change with hapedge.
 */

export type TimeoutMap = typeof FILES.timeoutExactMap | typeof FILES.timeoutPrefixMap

/** Between the server and the tunnel timeout in a map value, either empty when unset: `5000|3600000`, `|3600000`. */
const SEPARATOR = '|'

/**
 * The timeout map entries of one host, added through `add`, keyed as the route maps key its
 * routes (route-keys.ts). When one route has timeouts every route of the host has an entry (`|`
 * when it has none), so the longest-prefix lookup never falls through to another route's timeouts.
 */
export function timeoutEntries(config: HostConfig, add: AddEntry<TimeoutMap>): void {
  routeValueEntries(add, config.host, config.routes, TIMEOUT_MAPS, timeoutsOf, SEPARATOR)
}

function timeoutsOf(route: Route): string | undefined {
  return route.timeouts && timeoutValue(route.timeouts)
}

const TIMEOUT_MAPS = { exact: FILES.timeoutExactMap, prefix: FILES.timeoutPrefixMap } as const

function timeoutValue(timeouts: RouteTimeouts): string {
  return `${timeouts.server ?? ''}${SEPARATOR}${timeouts.tunnel ?? ''}`
}

/** In the frontend, once the request key is known: the route's timeouts, looked up as its backend was. */
export function timeoutLookupRules(set: SetVar): string[] {
  return [...routeValueLookup(set, 'timeouts', TIMEOUT_MAPS)]
}

const field = (n: number) => `var(txn.timeouts),field(${n},${SEPARATOR})`
const setTimeout = (name: string, n: number) => `    http-request set-timeout ${name} ${field(n)} if { ${field(n)} -m reg ^[0-9]+$ }`

/** In every Service's backend (HAProxy 2.6 has `set-timeout` in backends only): each timeout the route has, set. */
export const SET_TIMEOUT_RULES: readonly string[] = [setTimeout('server', 1), setTimeout('tunnel', 2)]
