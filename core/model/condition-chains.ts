import type { Route } from './derive-host.ts'
import { compareConditions, type MatchConditions, PATH_DIMENSION } from './gateway-conditions.ts'
import type { Rejection } from './rejection.ts'
import { compareRouteMatch } from './routes.ts'
import { compareText } from '../compare-text.ts'

/** One place of a chain: the key its route's values are found under, and what the request must meet (none: it always does). */
export interface ChainEntry {
  key: string
  conditions?: MatchConditions
}

/**
 * The routes a request of one path may take, in the specification's precedence: the path's
 * matches with conditions (a method first, then more headers, then more query parameters, then
 * the older route), then its route without conditions, else the routes of the next shorter
 * prefix, and so on. The first whose conditions the request meets takes it (render-conditions.ts).
 */
export interface RouteChain {
  /** What the route maps give for the path: no backend is named so (it holds `?`, as no host or path does). */
  id: string
  entries: ChainEntry[]
}

/** The most places of a chain: a place is a bit of a 63-bit mask at request time. */
export const MOST_CHAIN_ENTRIES = 62
/** The most RegularExpression matches of one header or query parameter in one chain: the frontend has a lookup for each. */
export const REGEX_PLACES = 4

/** A route's key in the maps when a chain takes it: the host, `?` (no host or path holds it), its rank among its path's, and its path. */
export function conditionKey(host: string, route: Pick<Route, 'match' | 'path'>, rank: number): string {
  return `${host}?${rank}${route.match === 'Exact' ? 'E' : 'P'}${route.path}`
}

const keyOf = (route: Pick<Route, 'match' | 'path'>) => `${route.match} ${route.path}`

/**
 * The host's routes with the HTTPRoute matches that have conditions (`candidates`, in route
 * precedence) put in chains: each path they match gets a chain (on its route, or on a route made
 * for it), each route a chain can end at gets its own key, and the candidates are routes served
 * only through chains. A chain too long, or with too many regular expressions on one name, is cut
 * and the matches cut are reported.
 */
export function withConditionChains(host: string, routes: Route[], candidates: readonly Route[], rejections: Rejection[]): Route[] {
  if (candidates.length === 0) return routes
  const byKey = new Map(routes.map((route) => [keyOf(route), route]))
  const own = new Map<string, Route[]>()
  for (const candidate of candidates) own.set(keyOf(candidate), [...(own.get(keyOf(candidate)) ?? []), candidate])
  const ranked = [...own.values()].flatMap((list) =>
    [...list]
      .sort((a, b) => compareConditions(a.conditions, b.conditions))
      .map((candidate, i) => ({ ...candidate, conditionKey: conditionKey(host, candidate, i + 1) })),
  )
  const rankedByKey = new Map<string, Route[]>()
  for (const candidate of ranked) rankedByKey.set(keyOf(candidate), [...(rankedByKey.get(keyOf(candidate)) ?? []), candidate])
  const targets = new Map<string, Route>()
  const target = (route: Route) => {
    const marked = targets.get(keyOf(route)) ?? { ...route, conditionKey: conditionKey(host, route, 0) }
    targets.set(keyOf(route), marked)
    return marked.conditionKey!
  }
  const parentKey = (path: string): string | undefined => {
    for (let end = path.lastIndexOf('/'); end >= 0; end = path.lastIndexOf('/', end - 1)) {
      const key = `Prefix ${end === 0 ? '/' : path.slice(0, end)}`
      if (byKey.has(key) || own.has(key)) return key
      if (end === 0) return undefined
    }
    return undefined
  }
  const chains = new Map<string, ChainEntry[]>()
  const chainOf = (key: string): ChainEntry[] => {
    const known = chains.get(key)
    if (known) return known
    const entries: ChainEntry[] = (rankedByKey.get(key) ?? []).map((candidate) => ({ key: candidate.conditionKey!, conditions: candidate.conditions }))
    const head = byKey.get(key)
    const [match, path] = [key.slice(0, key.indexOf(' ')), key.slice(key.indexOf(' ') + 1)]
    if (head) entries.push({ key: target(head) })
    else if (match === 'Exact') entries.push(...(byKey.has(`Prefix ${path}`) || own.has(`Prefix ${path}`) ? chainOf(`Prefix ${path}`) : []))
    else if (path !== '/') entries.push(...chainOfParent(path))
    chains.set(key, entries)
    return entries
  }
  const chainOfParent = (path: string) => {
    const parent = parentKey(path)
    return parent ? chainOf(parent) : []
  }
  const heads: Route[] = []
  for (const [key, list] of rankedByKey) {
    const first = list[0]!
    const entries = cut(host, first, chainOf(key), ranked, rejections)
    const chain: RouteChain = { id: conditionKey(host, first, 0), entries }
    heads.push({ ...(targets.get(key) ?? byKey.get(key) ?? withoutConditions(first)), chain })
  }
  const headKeys = new Set(heads.map(keyOf))
  const rest = routes.filter((route) => !headKeys.has(keyOf(route))).map((route) => targets.get(keyOf(route)) ?? route)
  return [...rest, ...heads, ...ranked].sort((a, b) => compareRouteMatch(a, b) || compareText(a.conditionKey ?? '', b.conditionKey ?? ''))
}

/** A route made for a path only conditional matches have: its chain decides, its own fields name the first match's Service. */
function withoutConditions({ conditions: _conditions, conditionKey: _key, ...route }: Route): Route {
  return route
}

/** The chain within what the frontend can test; the matches cut are reported. */
function cut(host: string, head: Route, entries: ChainEntry[], ranked: readonly Route[], rejections: Rejection[]): ChainEntry[] {
  const kept: ChainEntry[] = []
  const regexes = new Map<string, number>()
  for (const entry of entries) {
    const searched = entry.conditions?.values.filter((value) => value.search !== undefined).map((value) => value.dimension) ?? []
    const crowded = searched.find((dimension) => (regexes.get(dimension) ?? 0) >= REGEX_PLACES)
    if (kept.length < MOST_CHAIN_ENTRIES && !crowded) {
      for (const dimension of searched) regexes.set(dimension, (regexes.get(dimension) ?? 0) + 1)
      kept.push(entry)
      continue
    }
    const owner = ranked.find((route) => route.conditionKey === entry.key)?.owner ?? head.owner
    const why = crowded
      ? `more than ${REGEX_PLACES} ${crowded === PATH_DIMENSION ? 'GRPCRoute matches of no service' : `RegularExpression matches of ${crowded.slice(1)}`} compete for it`
      : `more than ${MOST_CHAIN_ENTRIES} matches compete for it`
    rejections.push({ object: owner, reason: `host "${host || '*'}" ${head.match} ${head.path}: a match is not served there, ${why}` })
  }
  return kept
}
