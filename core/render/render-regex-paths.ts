import type { HostConfig, Route } from '../model/derive-host.ts'
import { REGEX_PATH_MARK } from '../model/routes.ts'
import { regexLiteral } from '../syntax/safe-regex-emit.ts'
import { FILES } from './files.ts'
import type { SetVar, AddEntry } from './route-keys.ts'

/**
 * `Regex` routes (regex-path.ts) at request time. Each is a line of `maps/path-regex.map`, a
 * regular expression hapedge builds from the host (escaped) and the route's normalised
 * expression, whose value is the route's key in the route maps (`host~expression`, forEachRouteKey): the
 * frontend, when no exact key matched, looks the request's `host + path` up with map_reg and, on
 * a match, takes that key, so the backend and every per-route value (timeouts, headers, canary …)
 * are found as for any other route. The first line that matches wins, so lines are ordered as
 * ingress-nginx orders regex locations: the longest expression first (a rank in a comment leads
 * each key, and map files are sorted by key). A new line therefore swaps the whole map
 * (map-updates.ts); a changed value is an entry edit; neither reloads.
 *
 * rewrite-target of such a route is `maps/rewrite-regex.map`, keyed the same, whose value is the
 * target with `\1`…`\9`, filled by map_regm from the expression's groups.
 */

export type RegexPathMap = typeof FILES.pathRegexMap | typeof FILES.rewriteRegexMap

/** Ranks are written in four digits, so the longest expression a route can have ranks first. */
const RANK_BASE = 10_000

/**
 * The map_reg key of a `Regex` route: the host, then the route's expression, anchored at the start
 * of `host + path` only (not at its end, as ingress-nginx's `^`). A GRPCRoute match of no service
 * is kept off the paths of the services it leaves to others (exceptServices) by a lookahead
 * hapedge writes from names the specification's pattern admits, not from a cluster's expression.
 */
export function regexRouteKey(host: string, route: Route): string {
  const expression = route.path.slice(REGEX_PATH_MARK.length)
  const rank = String(RANK_BASE - 1 - Math.min(expression.length, RANK_BASE - 1)).padStart(4, '0')
  const except = route.exceptServices ? `(?!/(?:${route.exceptServices.map(regexLiteral).join('|')})/)` : ''
  return `^${regexLiteral(host)}(?#${rank})${except}(?:${expression})`
}

/** Where a rewrite of a host with a regex target falls through: a route of the host without one (never read: its rewrite map value does not ask for the regex). */
const NONE = '-'

export function regexPathEntries(config: HostConfig, add: AddEntry<RegexPathMap>): void {
  const regex = config.routes.filter((route) => route.match === 'Regex')
  if (regex.length === 0) return
  const rewrites = regex.some((route) => route.rewrite?.regexTarget !== undefined)
  for (const route of regex) {
    const key = regexRouteKey(config.host, route)
    add(FILES.pathRegexMap, key, `${config.host}${route.path}`)
    // Every regex route of the host, so that the first match here is the route the path map picked.
    if (rewrites) add(FILES.rewriteRegexMap, key, route.rewrite?.regexTarget ?? NONE)
  }
}

/**
 * In the frontend, after the exact lookup and before the longest prefix: a `Regex` route takes
 * the request when no Exact path (nor a Prefix path's own path) is the request's, and before any
 * Prefix path below it. `txn.pathkey` keeps the request's own key for the rewrite (map_regm).
 */
export function regexRouteRules(set: SetVar): string[] {
  const found = 'if { var(txn.regexroute) -m found }'
  return [
    set('regexroute', `var(txn.key),map_reg(${FILES.pathRegexMap})`, 'unless { var(txn.backend) -m found }'),
    set('pathkey', 'var(txn.key)', found),
    set('key', 'var(txn.regexroute)', found),
    set('backend', `var(txn.key),map_str(${FILES.exactMap})`, found),
  ]
}

/** The new path of a `Regex` route's rewrite, from the request's own key. */
export const regexRewrite = `var(txn.pathkey),map_regm(${FILES.rewriteRegexMap})`
