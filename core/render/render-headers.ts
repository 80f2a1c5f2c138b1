import type { HostConfig, Route } from '../model/derive-host.ts'
import type { HeaderVariable } from '../annotations/header-variables.ts'
import { UNRESOLVED_BACKEND } from '../model/backend-ref.ts'
import { type HeaderValue, RULE_SEPARATOR, ruleParts } from '../model/header-rules.ts'
import { SPLIT_RULE } from '../model/route-split.ts'
import { FILES } from './files.ts'
import { routeId, routeValueEntries, routeValueLookup, type SetVar, type AddEntry } from './route-keys.ts'
import { BY_BACKEND, unlessCanary } from './render-split-values.ts'

/**
 * Per-route request and response headers. The route maps' lookups, repeated on the header maps,
 * give the route's id; the value of each rule is found under `<route id>|<rule>` in the values
 * map and sent URL-decoded. A value is data, never configuration: it is written percent-encoded
 * (no space, `%[`, quote, `;` or line end reaches a map line or a runtime `set map` command), so
 * a changed value is a runtime map edit. The rules name the headers, so a new name is a reload.
 */

export type HeaderMap = typeof FILES.headersExactMap | typeof FILES.headersPrefixMap | typeof FILES.headerValuesMap

const ROUTE_MAPS = { exact: FILES.headersExactMap, prefix: FILES.headersPrefixMap } as const

/** The route id of routes without headers on a host where some have: no value key starts with it. */
const NO_HEADERS = '-'

/**
 * The end of the id of a route whose split's Services get different headers (their backendRefs'
 * filters): the frontend adds the drawn backend's name to it (backendHeaderRule), so their values
 * are found under `<route id>|<backend>|<rule>`, and the route's own (a canary's requests) under
 * `<route id>|<rule>`. No other id ends so, and no backend name is a rule's op: BY_BACKEND
 * (render-split-values.ts), as the other values a split's Services get each their own of.
 */

/** Whether a route's split gives its Services different header sets (their backendRefs' filters). */
const headersBySplit = (route: Route) => route.split?.backends.some((place) => place.headers) === true

/** Whether a route has header values of its own or its split's Services'. */
const hasHeaders = (route: Route) => route.headers !== undefined || headersBySplit(route)

/** A route's id in the values map's keys (routeId), marked when its split's Services get different headers. */
function headersId(host: string, route: Route): string {
  return `${routeId(host, route)}${headersBySplit(route) ? BY_BACKEND : ''}`
}

/** The header sets of a route, each under the id the frontend finds it by: the route's own, and each Service's of its split when they differ. */
function headerSets(host: string, route: Route): Map<string, readonly HeaderValue[]> {
  const id = headersId(host, route)
  const sets = new Map<string, readonly HeaderValue[]>()
  if (route.headers) sets.set(id, route.headers)
  if (!id.endsWith(BY_BACKEND)) return sets
  // A share that does not resolve is answered by hapedge (500), sent nowhere.
  for (const place of route.split!.backends)
    if (place.backendName !== UNRESOLVED_BACKEND) sets.set(`${id}${RULE_SEPARATOR}${place.backendName}`, place.headers ?? route.headers ?? [])
  return sets
}

/** The header map entries of one host, added through `add`; its keys start with the host's name, as every host map's. */
export function headerEntries(config: HostConfig, add: AddEntry<HeaderMap>): void {
  const { host, routes } = config
  routeValueEntries(add, host, routes, ROUTE_MAPS, headersOf, NO_HEADERS)
  for (const route of routes)
    if (hasHeaders(route))
      for (const [id, headers] of headerSets(host, route))
        for (const { rule, value } of headers) add(FILES.headerValuesMap, `${id}${RULE_SEPARATOR}${rule}`, mapValue(rule, value))
}

function headersOf(route: Route, host: string): string | undefined {
  return hasHeaders(route) ? headersId(host, route) : undefined
}

/** What a map value may hold as it is: the URL-unreserved characters, none of which HAProxy's map files or CLI read specially. */
const UNRESERVED = /^[A-Za-z0-9_.~-]$/

/** A header value as `url_dec` decodes it back, byte for byte (UTF-8); a removal's or a variable's value marks it present. */
export function mapValue(rule: string, value: string): string {
  const { op, variable } = ruleParts(rule)
  if (op.endsWith('-del') || variable !== undefined) return '1'
  let encoded = ''
  for (const byte of new TextEncoder().encode(value)) {
    const char = String.fromCharCode(byte)
    encoded += UNRESERVED.test(char) ? char : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`
  }
  return encoded
}

/** In the frontend, once the request key is known: the route's id, looked up as its backend was (none without header rules). */
export function headerLookupRules(set: SetVar, rules: readonly string[]): string[] {
  if (rules.length === 0) return []
  return routeValueLookup(set, 'headers', ROUTE_MAPS)
}

/**
 * In the frontend, once the split has drawn the request's Service and before the header rules
 * run: a route whose split's Services get different headers finds them by the drawn backend
 * (`txn.splitpick`); a request a canary takes keeps the route's own. `canaryRules`: the frontend's
 * (render-canary.ts), where the split's rule is too.
 */
export function backendHeaderRule(set: SetVar, rules: readonly string[], canaryRules: readonly string[]): string[] {
  if (rules.length === 0 || !canaryRules.includes(SPLIT_RULE)) return []
  return [
    set('headers', `var(txn.headers),concat(${RULE_SEPARATOR},txn.splitpick,)`, `if { var(txn.headers) -m end ${BY_BACKEND} }${unlessCanary(canaryRules)}`),
  ]
}

/**
 * What HAProxy fills a variable's header with: fixed samples, none of them written by a user. The
 * request's host and scheme are kept in variables the frontend sets (render-frontend.ts,
 * render-scheme.ts), so responses read them too; `src` is the client a trusted proxy names.
 */
const VARIABLE_SAMPLES: Record<HeaderVariable, string> = {
  req_id: 'unique-id',
  host: 'var(txn.host)',
  remote_addr: 'src',
  scheme: 'var(txn.scheme)',
}

/** A request's unique id as NGINX's $req_id: 32 hex digits, made once per request (`unique-id`), so a request and its answer carry the same. */
const UNIQUE_ID_FORMAT = '    unique-id-format %[uuid(4),regsub(-,,g)]'

/** The frontend's unique-id format, when a rule sends $req_id. */
export function uniqueIdFormat(rules: readonly string[]): string[] {
  return rules.some((rule) => ruleParts(rule).variable === 'req_id') ? [UNIQUE_ID_FORMAT] : []
}

/** The frontend's rule for each header rule a served Ingress has (rules sorted as compareRules does), request or response ones. */
export function headerRules(rules: readonly string[], side: 'req' | 'res'): string[] {
  const rows: string[] = []
  for (const rule of rules) {
    const { op, name, variable } = ruleParts(rule)
    const [direction, action] = op.split('-') as ['req' | 'res', 'del' | 'set' | 'add']
    if (direction !== side) continue
    const keyword = direction === 'req' ? 'http-request' : 'http-response'
    const value = `var(txn.headers),concat(${RULE_SEPARATOR}${rule}),map_str(${FILES.headerValuesMap})`
    const condition = `if { ${value} -m found }`
    const sample = variable === undefined ? `${value},url_dec` : VARIABLE_SAMPLES[variable]
    rows.push(action === 'del' ? `    ${keyword} del-header ${name} ${condition}` : `    ${keyword} ${action}-header ${name} %[${sample}] ${condition}`)
  }
  return rows
}
