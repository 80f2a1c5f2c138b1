import type { HttpRouteMatch } from '../kube/gateway-http-route.ts'
import { searchExpression } from '../syntax/regex-search.ts'
import { quote } from '../syntax/fields.ts'

/**
 * What an HTTPRoute match asks of a request beside its path: its method, headers and query
 * parameters. Names are written in HAProxy's rules (it fetches a header or parameter by a name
 * in its configuration), so they are held to a few characters; values are data, kept in maps.
 */
export interface ValueCondition {
  /** The dimension it tests (render-conditions.ts): `h<name>` for a header (lowercase), `q<name>` for a query parameter. */
  dimension: string
  /** The whole value, for Exact. */
  exact?: string
  /** For RegularExpression: the expression the safe-regex reader re-emitted, searched in the value (regex-search.ts). */
  search?: string
}

export interface MatchConditions {
  method?: string
  values: ValueCondition[]
}

/** The dimension of the method. */
export const METHOD_DIMENSION = 'm'
/** The dimension of the path, searched by a GRPCRoute match of no service where it follows a service's header matches (grpc-services-first.ts). */
export const PATH_DIMENSION = 'p'

/** What a header or query parameter name may be as hapedge writes it into HAProxy's rules: a token of these characters. */
const NAME = /^[A-Za-z0-9_.-]{1,64}$/
/** The methods the Gateway API names. */
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'CONNECT', 'OPTIONS', 'TRACE', 'PATCH'])
/** The longest Exact value kept: its map key holds it hex-encoded, within HAProxy's line. */
const LONGEST_VALUE = 1024

export type ConditionsReading = { conditions?: MatchConditions } | { refused: string[] }

/**
 * A match's method, headers and query parameters, or what of them hapedge does not serve (with
 * the field's path under `at`). As the specification says, of two entries with one name only the
 * first counts (header names case-insensitively, query parameter names exactly).
 */
export function readConditions(match: HttpRouteMatch, at: string): ConditionsReading {
  const refused: string[] = []
  const values: ValueCondition[] = []
  const seen = new Set<string>()
  const read = (kind: 'headers' | 'queryParams', prefix: string) =>
    match[kind]?.forEach((entry, i) => {
      const where = `${at}.${kind}[${i}]`
      if (!NAME.test(entry.name))
        return refused.push(`${where}.name: ${quote(entry.name)} is not served: hapedge matches names of letters, digits, "-", "_" or "."`)
      const dimension = `${prefix}${prefix === 'h' ? entry.name.toLowerCase() : entry.name}`
      if (seen.has(dimension)) return
      seen.add(dimension)
      const type = entry.type ?? 'Exact'
      if (type === 'Exact') {
        if (entry.value.length > LONGEST_VALUE) return refused.push(`${where}.value: longer than ${LONGEST_VALUE} characters, which hapedge does not match`)
        return values.push({ dimension, exact: entry.value })
      }
      if (type !== 'RegularExpression') return refused.push(`${where}.type: ${type} is not honoured by hapedge (Exact and RegularExpression are)`)
      const search = searchExpression(entry.value)
      if ('refused' in search) return refused.push(`${where}.value: the regular expression ${quote(entry.value)} is not served: ${search.refused}`)
      values.push({ dimension, search: search.expression })
    })
  read('headers', 'h')
  read('queryParams', 'q')
  if (match.method !== undefined && !METHODS.has(match.method)) refused.push(`${at}.method: ${quote(match.method)} is not an HTTP method the Gateway API names`)
  if (refused.length > 0) return { refused }
  if (match.method === undefined && values.length === 0) return {}
  return { conditions: { ...(match.method !== undefined ? { method: match.method } : {}), values } }
}

/**
 * The specification's order between matches of one path: a method first, then more headers, then
 * more query parameters; a tie keeps the order they came in (route precedence, then rules).
 */
export function compareConditions(a: MatchConditions | undefined, b: MatchConditions | undefined): number {
  const count = (conditions: MatchConditions | undefined, prefix: string) =>
    conditions?.values.filter((value) => value.dimension.startsWith(prefix)).length ?? 0
  return Number(b?.method !== undefined) - Number(a?.method !== undefined) || count(b, 'h') - count(a, 'h') || count(b, 'q') - count(a, 'q')
}

/** The dimensions a match tests. */
export function conditionDimensions(conditions: MatchConditions | undefined): string[] {
  if (!conditions) return []
  return [...(conditions.method !== undefined ? [METHOD_DIMENSION] : []), ...conditions.values.map((value) => value.dimension)]
}

/** The frontend rule every HTTPRoute with a conditional match stores (canary.ts keeps the frontend's rules), and one per dimension it tests. */
export const CONDITION_RULE = 'cond'
export const dimensionRule = (dimension: string) => `cond|${dimension}`
/** A dimension some match tests by a RegularExpression: the frontend looks its value up in the regex map too. */
export const searchRule = (dimension: string) => `cond-regex|${dimension}`

/** The frontend rules of an HTTPRoute's matches: none without conditions. */
export function conditionRules(matches: readonly (MatchConditions | undefined)[]): string[] {
  const rules = new Set<string>()
  for (const conditions of matches) {
    if (!conditions) continue
    rules.add(CONDITION_RULE)
    for (const dimension of conditionDimensions(conditions)) rules.add(dimensionRule(dimension))
    for (const value of conditions.values) if (value.search !== undefined) rules.add(searchRule(value.dimension))
  }
  return [...rules].sort()
}
