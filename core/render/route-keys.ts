import type { RouteMatch } from '../model/routes.ts'

/** Where a host's map entries go as they are made, `add(map, key, value)`: a full rebuild makes hundreds of thousands, so none is a list or a generator's step of its own. */
export type AddEntry<M extends string> = (map: M, key: string, value: string) => void

/**
 * The keys the route maps find a host's routes by, and which map, each given to `visit`: each Exact path, and each Prefix
 * path itself unless an Exact path has it, each Regex route's key, and each key a chain of conditions gives, in `exact`; each Prefix path plus `/` (`/` alone for
 * the root) in `prefix`, so `/aaa` never matches `/aaabbb`. The frontend looks up the exact key,
 * then the longest prefix; maps keyed by these pick the same route.
 */
export function forEachRouteKey<R extends RouteMatch & ChainedRoute>(
  host: string,
  routes: readonly R[],
  visit: (map: 'exact' | 'prefix', key: string, route: R) => void,
): void {
  const exact = new Map<string, R>()
  // A Regex route's key is the value its line of the regex map gives (render-regex-paths.ts): its path starts with a mark no HTTP path has.
  for (const route of routes) if (route.match !== 'Prefix' && !route.conditions) exact.set(host + route.path, route)
  for (const route of routes) {
    if (route.match !== 'Prefix' || route.conditions) continue
    if (route.path === '/') {
      visit('prefix', `${host}/`, route)
      continue
    }
    // Joined, so made flat, and the exact key a slice of it: a concatenation is a chain of parts that sorting and
    // hashing flatten into a second copy, each kept (about 170 bytes for the two keys of a Prefix route, against 90).
    const prefixKey = [host, route.path, '/'].join('')
    const key = prefixKey.slice(0, -1)
    if (!exact.has(key)) exact.set(key, route)
    visit('prefix', prefixKey, route)
  }
  for (const [key, route] of exact) visit('exact', key, route)
  // A route a chain of conditions can end at is found by its own key too, which the chain gives (condition-chains.ts).
  for (const route of routes) if (route.conditionKey) visit('exact', route.conditionKey, route)
}

/**
 * A route's id in the keys of maps of values per route (header values, a split's Services' values): its host, path and
 * match (routes are unique by those); a conditional match's own key, as the matches of one path share them (condition-chains.ts).
 */
export function routeId(host: string, route: RouteMatch & ChainedRoute): string {
  if (route.conditions) return `${route.conditionKey}|C`
  return `${host}${route.path}|${route.match === 'Exact' ? 'E' : 'P'}`
}

/** What forEachRouteKey reads of a route's chains: a route with conditions is found only by its own key, which every chained route has. */
interface ChainedRoute {
  conditionKey?: string
  conditions?: unknown
  chain?: unknown
}

/** The exact and the prefix map a per-route value is kept in, looked up with the same keys as the route maps. */
export interface RouteValueMaps<M extends string> {
  exact: M
  prefix: M
}

/**
 * Per-route values (a redirect, timeouts, …) added as entries keyed as the route maps key the
 * routes (forEachRouteKey), for the routes `readValue` gives a value. With `fallback`, when
 * any route of the host has a value every route gets an entry (the fallback when it has none), so
 * the longest-prefix lookup never falls through to another route's value; without it, only the
 * routes with a value have entries (for values looked up only when the route maps already picked
 * such a route, as a redirect is).
 */
export function routeValueEntries<R extends RouteMatch & ChainedRoute, M extends string>(
  add: AddEntry<M>,
  host: string,
  routes: readonly R[],
  maps: RouteValueMaps<M>,
  readValue: (route: R, host: string) => string | undefined,
  fallback?: string,
): void {
  // A dozen kinds are asked of every host, and most hosts have none of them: a loop, and readers that are
  // constants given the host, so that asking makes no function (two each, for each kind and host, made a tenth of a rebuild's garbage).
  if (!anyValue(host, routes, readValue)) return
  forEachRouteKey(host, routes, (map, key, route) => {
    // A path only conditional matches have holds no values: a chain its request fails leaves it for another route (condition-chains.ts).
    if (route.chain && !route.conditionKey) return
    const value = readValue(route, host) ?? fallback
    if (value !== undefined) add(maps[map], key, value)
  })
}

function anyValue<R>(host: string, routes: readonly R[], readValue: (route: R, host: string) => string | undefined): boolean {
  for (const route of routes) if (readValue(route, host) !== undefined) return true
  return false
}

/** How the frontend sets a transaction variable: `http-request set-var(txn.<name>) <expr> [<condition>]`. */
export type SetVar = (name: string, expr: string, condition?: string) => string

/**
 * The frontend's lookup of a per-route value into `txn.<variable>`, once the request key is known:
 * the exact key, else the longest prefix, as the route maps pick the route (`integer` reads the
 * value as a number, `map_str_int`).
 */
export function routeValueLookup(set: SetVar, variable: string, maps: RouteValueMaps<string>, integer = false): string[] {
  const type = integer ? '_int' : ''
  return [
    set(variable, `var(txn.key),map_str${type}(${maps.exact})`),
    set(variable, `var(txn.key),map_beg${type}(${maps.prefix})`, `unless { var(txn.${variable}) -m found }`),
  ]
}
