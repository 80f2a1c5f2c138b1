import { UNRESOLVED_BACKEND } from '../model/backend-ref.ts'
import { CANARY_RULE } from '../model/canary.ts'
import type { Route } from '../model/derive-host.ts'
import { SPLIT_RULE, type SplitBackend } from '../model/route-split.ts'
import { routeId, routeValueEntries, type AddEntry, type RouteValueMaps, type SetVar } from './route-keys.ts'

/**
 * A per-route value (a rewrite, an upstream Host) of which a split's Services get each their own
 * (their backendRefs' URLRewrite: gateway-backend-filters.ts). The route maps give such a route
 * `<route id>|S` (routeId; no other value ends so); once the split has drawn the request's
 * Service, the frontend reads the value of the drawn backend under `<route id>|S|<backend>` in the
 * exact map, and for a request a canary Ingress takes, the route's own under `<route id>|S`.
 * Values are map data: a changed one, or a Service joining the split, is a runtime map edit.
 */

/** The end of the value of a route whose split's Services get different values (and of its header id: render-headers.ts). */
export const BY_BACKEND = '|S'

/**
 * A host's entries of a per-route value: `valueAt(route)` the route's own, `valueAt(route, place)`
 * a place of its split's own if it has one; `none`, what a route without a value has on a host
 * where some have one (and a share answered 500).
 */
export function splitValueEntries<M extends string>(
  add: AddEntry<M>,
  host: string,
  routes: readonly Route[],
  maps: RouteValueMaps<M>,
  valueAt: (route: Route, place?: SplitBackend) => string | undefined,
  none: string,
): void {
  routeValueEntries(add, host, routes, maps, (route) => (bySplit(route, valueAt) ? `${routeId(host, route)}${BY_BACKEND}` : valueAt(route)), none)
  for (const route of routes) {
    if (!bySplit(route, valueAt)) continue
    const id = `${routeId(host, route)}${BY_BACKEND}`
    const own = valueAt(route) ?? none
    add(maps.exact, id, own)
    for (const place of route.split!.backends)
      add(maps.exact, `${id}|${place.backendName}`, place.backendName === UNRESOLVED_BACKEND ? none : (valueAt(route, place) ?? own))
  }
}

/** Whether some of a route's split's Services have a value of their own. */
function bySplit(route: Route, valueAt: (route: Route, place?: SplitBackend) => string | undefined): boolean {
  return route.split?.backends.some((place) => valueAt(route, place) !== undefined) === true
}

/** The condition of a rule that finds a split's Service's own value, unless a canary took the request (which keeps the route's). */
export function unlessCanary(canaryRules: readonly string[]): string {
  return canaryRules.includes(CANARY_RULE) ? ' !{ var(txn.canarypick) -m int eq 1 }' : ''
}

/**
 * In the frontend, once the split and the canary have drawn: a route's value that its split's
 * Services get each their own of (`txn.<variable>` ends with BY_BACKEND), read again for the drawn
 * backend, else (a canary's request) as the route's own. Written only while some route splits.
 */
export function splitValueRules(set: SetVar, variable: string, exactMap: string, canaryRules: readonly string[]): string[] {
  if (!canaryRules.includes(SPLIT_RULE)) return []
  const marked = `if { var(txn.${variable}) -m end ${BY_BACKEND} }`
  return [
    set(variable, `var(txn.${variable}),concat(|,txn.splitpick,),map_str(${exactMap})`, `${marked}${unlessCanary(canaryRules)}`),
    set(variable, `var(txn.${variable}),map_str(${exactMap})`, marked),
  ]
}
