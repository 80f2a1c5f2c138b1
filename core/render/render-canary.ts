import type { HeaderPattern } from '../annotations/canary-values.ts'
import { CANARY_RULE } from '../model/canary.ts'
import type { RouteCanary } from '../model/canary-route.ts'
import type { HostConfig, Route } from '../model/derive-host.ts'
import { FILES } from './files.ts'
import { routeValueEntries, routeValueLookup, type SetVar, type AddEntry } from './route-keys.ts'

/**
 * Canaries at request time. A route's canary is one map value, `backend|weight|total|header|cookie|id`
 * (empty fields for what it lacks; `id` names the route's listed header values in the values map, or
 * its pattern in the patterns map): the frontend picks the canary's backend by the header
 * ("always"/"never", a listed value, or a value the pattern finds), else
 * the cookie ("always"/"never"), else a draw of `weight` in `total`, as ingress-nginx does. Every
 * value is data HAProxy reads per request, so a changed weight, total, header value or canary
 * Service of a known backend is a runtime map edit; only the header and cookie NAMES are in the
 * rules (HAProxy 2.6 reads headers and cookies by names written in its configuration), so a name no
 * other canary uses yet reloads, as header rules do.
 */

export type CanaryMap = typeof FILES.canaryExactMap | typeof FILES.canaryPrefixMap | typeof FILES.canaryValuesMap | typeof FILES.canaryPatternsMap

const CANARY_MAPS = { exact: FILES.canaryExactMap, prefix: FILES.canaryPrefixMap } as const

/** Between the fields of a canary's map value: no backend, number, header or cookie name, host or path holds it. */
const SEPARATOR = '|'

/** The value of a route without a canary on a host where some route has one: no backend is named so (theirs hold `_` or start with `hapedge-`). */
const NONE = 'none'

/** The id of a route's listed header values: its host, path and match (routes are unique by those); the values map's keys start with the host, as every host map's. */
function valuesId(host: string, route: Route): string {
  return `${host}${route.path}${SEPARATOR}${route.match === 'Exact' ? 'E' : 'P'}`
}

function canaryValue(host: string, route: Route, canary: RouteCanary): string {
  const id = canary.headerValues || canary.headerPattern ? valuesId(host, route) : ''
  return [canary.backendName, canary.weight, canary.total, canary.header ?? '', canary.cookie ?? '', id].join(SEPARATOR)
}

/** The canary map entries of one host, added through `add`: every route of a host with a canary has one, so a longer path never takes a shorter one's canary. */
export function canaryEntries(config: HostConfig, add: AddEntry<CanaryMap>): void {
  const { host, routes } = config
  routeValueEntries(add, host, routes, CANARY_MAPS, canaryOf, NONE)
  for (const route of routes) {
    for (const value of route.canary?.headerValues ?? []) add(FILES.canaryValuesMap, `${valuesId(host, route)}${SEPARATOR}${value}`, '1')
    if (route.canary?.headerPattern) add(FILES.canaryPatternsMap, patternKey(valuesId(host, route), route.canary.headerPattern), '1')
  }
}

function canaryOf(route: Route, host: string): string | undefined {
  return route.canary && canaryValue(host, route, route.canary)
}

/**
 * A pattern as the regular expression a `map_reg` lookup of `id|value` matches: made here from the
 * id and the pattern's literals, each character that is not a letter or digit escaped, so nothing
 * a cluster wrote is read as a regular expression, and what it makes only searches (no nested
 * repetition). No whitespace: a map key is one word.
 */
export function patternKey(id: string, { values, start, end, expression }: HeaderPattern): string {
  const literal = (text: string) => text.replace(/[^A-Za-z0-9]/g, (char) => `\\${char}`)
  // A general pattern: the expression the safe-regex reader re-emitted, searching what follows the id.
  if (expression !== undefined) return `^${literal(`${id}${SEPARATOR}`)}${expression}`
  return `^${literal(`${id}${SEPARATOR}`)}${start ? '' : '.*'}(?:${values.map(literal).join('|')})${end ? '$' : ''}`
}

const field = (n: number, rest = false) => `var(txn.canary),field(${n},${SEPARATOR}${rest ? ',0' : ''})`
const undecided = '!{ var(txn.canarypick) -m found }'
const namesOf = (rules: readonly string[], kind: string) =>
  rules.filter((rule) => rule.startsWith(`${kind}${SEPARATOR}`)).map((rule) => rule.slice(kind.length + 1))

/**
 * In the frontend, once routing and access have picked the route's backend: the route's canary
 * looked up as the backend was, the header and cookie each canary names read, the choice made in
 * ingress-nginx's order, and the backend replaced when it is the canary. `rules` are the served
 * canaries' (canary.ts: `canary`, `header|<name>`, `cookie|<name>`); none, no rule at all.
 */
export function canaryRules(set: SetVar, rules: readonly string[]): string[] {
  if (!rules.includes(CANARY_RULE)) return []
  return [
    ...routeValueLookup(set, 'canary', CANARY_MAPS),
    `    http-request unset-var(txn.canary) if { var(txn.canary) -m str ${NONE} }`,
    ...namesOf(rules, 'header').map((name) => set('canaryheader', `req.fhdr(${name})`, `if { ${field(4)} -m str ${name} }`)),
    ...namesOf(rules, 'cookie').map((name) => set('canarycookie', `req.cook(${name})`, `if { ${field(5)} -m str ${name} }`)),
    // The header first, its whole last line as NGINX reads it (req.hdr would split it at commas): one of its listed values,
    // else (without a list) "always" or "never"; any other value falls through.
    ...[`map_str(${FILES.canaryValuesMap})`, `map_reg(${FILES.canaryPatternsMap})`].map((lookup) =>
      set(
        'canarypick',
        'int(1)',
        `if ${undecided} { var(txn.canaryheader) -m found } !{ ${field(6)} -m len 0 } { ${field(6, true)},concat(${SEPARATOR},txn.canaryheader,),${lookup} -m found }`,
      ),
    ),
    set('canarypick', 'int(1)', `if ${undecided} { ${field(6)} -m len 0 } { var(txn.canaryheader) -m str always }`),
    set('canarypick', 'int(0)', `if ${undecided} { ${field(6)} -m len 0 } { var(txn.canaryheader) -m str never }`),
    // Then the cookie.
    set('canarypick', 'int(1)', `if ${undecided} { var(txn.canarycookie) -m str always }`),
    set('canarypick', 'int(0)', `if ${undecided} { var(txn.canarycookie) -m str never }`),
    // Then the weight: a draw in [0, total) below it (`rand` is 32 bits, so the modulo's bias is below total / 2^32).
    set('canaryweight', field(2), `if ${undecided} { var(txn.canary) -m found }`),
    set('canarytotal', field(3), 'if { var(txn.canaryweight) -m found }'),
    set('canarypick', 'int(1)', `if { var(txn.canaryweight) -m found } { rand,mod(txn.canarytotal),sub(txn.canaryweight) -m int lt 0 }`),
    set('backend', field(1), 'if { var(txn.canarypick) -m int eq 1 }'),
  ]
}
