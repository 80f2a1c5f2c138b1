import { DEFAULT_REFUSAL_STATUS, REFUSAL_STATUSES } from '../annotations/limit-values.ts'
import type { AccessGroup } from '../model/access-group.ts'
import type { HostConfig, Route } from '../model/derive-host.ts'
import { LIMIT_WINDOWS, TABLE_SIZE, type RouteLimits } from '../model/route-limits.ts'
import type { Settings } from '../model/settings.ts'
import { FILES, lines } from './files.ts'
import { routeValueEntries, routeValueLookup, type SetVar, type AddEntry } from './route-keys.ts'

/**
 * Rate and connection limits per client address (route-limits.ts). Structural, so the same for
 * every cluster: a stick table per window, the rules that track a client in them and the one
 * refusal rule per status. Per route, a map value HAProxy reads at request time: which Ingress
 * the counts are of and its limits, so a changed limit (or status) is a runtime map edit.
 */

export type LimitMap = typeof FILES.limitExactMap | typeof FILES.limitPrefixMap

const LIMIT_MAPS = { exact: FILES.limitExactMap, prefix: FILES.limitPrefixMap } as const

/** Between a map value's fields (none holds it): `<id>|<1s>|<1m>|<1h>|<connections>|<status>`, a field empty when unset. */
const SEPARATOR = '|'
/** The value of a route of a limited host whose Ingress sets no limits, so the longest-prefix lookup never falls through to another's. */
const UNLIMITED = '-'

/**
 * The limit map entries of one host, added through `add`, keyed as the route maps key its
 * routes (route-keys.ts); every route of the host has one when any has limits (UNLIMITED otherwise).
 */
export function limitEntries(config: HostConfig, add: AddEntry<LimitMap>): void {
  routeValueEntries(add, config.host, config.routes, LIMIT_MAPS, limitsOf, UNLIMITED)
}

function limitsOf(route: Route): string | undefined {
  return route.limits && limitValue(route.limits)
}

export function limitValue({ id, windows, connections, status }: RouteLimits): string {
  const field = (value: number | undefined) => (value === undefined ? '' : String(value))
  return [id, ...LIMIT_WINDOWS.map(({ name }) => field(windows[name])), field(connections), field(status)].join(SEPARATOR)
}

/** A window's table: a sliding count of requests per `<address>|<id>` key over the window (and the requests in progress, on the first). */
export const limitTable = (window: string) => `hapedge-limit-${window}`

/** The longest key: an IPv6 address in text (45 at most, mapped IPv4 included), the separator and the id. */
const KEY_LENGTH = 64

/** The tables, as backends of their own (never routed to); an entry outlives its window, so a count is never cut short. */
export function limitTables(): string[] {
  return LIMIT_WINDOWS.flatMap(({ name, ms }, counter) => [
    `backend ${limitTable(name)}`,
    `    stick-table type string len ${KEY_LENGTH} size ${TABLE_SIZE} expire ${Math.max(10_000, 2 * ms)} store http_req_rate(${ms})${counter === 0 ? ',conn_cur' : ''}`,
    '',
  ])
}

/** The ACL file of an access group's limit-allowlist (read with `src -f`, edited at runtime). */
export function limitExemptFile(group: string): string {
  return `acls/${group}.limit-exempt.acl`
}

/** An access group's exempt file, when its Ingress has a limit-allowlist. */
export function limitExemptFiles(group: AccessGroup): [string, string][] {
  return group.limitExempt ? [[limitExemptFile(group.name), lines(group.limitExempt.ranges)]] : []
}

/** Per access group with a limit-allowlist: its clients (the address the source ranges check) are not counted. */
export function limitExemptRules(groups: Iterable<AccessGroup>): string[] {
  const rules: string[] = []
  for (const { name, limitExempt } of groups)
    if (limitExempt)
      rules.push(`    http-request set-var(txn.limit_exempt) bool(true) if { var(txn.access) -m str ${name} } { src -f ${limitExemptFile(name)} }`)
  return rules
}

const field = (n: number) => `var(txn.limits),field(${n},${SEPARATOR})`
const hasField = (n: number) => `{ ${field(n)} -m reg ^[0-9]+$ }`
const CONNECTIONS_FIELD = LIMIT_WINDOWS.length + 2
const STATUS_FIELD = LIMIT_WINDOWS.length + 3

/** The settings' statuses, set in `global` when they are set (a change reloads, as every setting does). */
const REQUEST_STATUS_VAR = 'proc.limit_req_status'
const CONNECTION_STATUS_VAR = 'proc.limit_conn_status'

export function limitStatusDefaults(settings: Pick<Settings, 'limit-req-status-code' | 'limit-conn-status-code'>): string[] {
  const request = settings['limit-req-status-code']
  const connection = settings['limit-conn-status-code']
  return [
    ...(request === undefined ? [] : [`    set-var ${REQUEST_STATUS_VAR} int(${request})`]),
    ...(connection === undefined ? [] : [`    set-var ${CONNECTION_STATUS_VAR} int(${connection})`]),
  ]
}

/**
 * In the frontend, once the route and its access group are known, before the group's source ranges
 * and authentication are checked (NGINX limits in its preaccess phase, so a client guessing
 * passwords is limited too): the route's limits looked up as its backend was; the client (`src`, which behind a trusted proxy is X-Forwarded-For's, as the
 * source ranges read it) tracked under `<address>|<id>` in the tables its limits need, unless its
 * Ingress's limit-allowlist holds it; a request past a limit refused with the Ingress's status, or
 * the settings', or 429. Requests refused are counted too: a client that keeps sending stays refused.
 */
export function limitRules(set: SetVar, exemptRules: readonly string[]): string[] {
  const key = '{ var(txn.limit_key) -m found }'
  return [
    ...routeValueLookup(set, 'limits', LIMIT_MAPS),
    set('limit_id', field(1), `if { var(txn.limits) -m reg ^[0-9a-f]{12}[${SEPARATOR}] }`),
    ...exemptRules,
    set('limit_key', `src,concat(${SEPARATOR},txn.limit_id,)`, 'if { var(txn.limit_id) -m found } !{ var(txn.limit_exempt) -m bool }'),
    ...LIMIT_WINDOWS.map(({ name }, counter) => set(`limit_${name}`, field(counter + 2), `if ${key} ${hasField(counter + 2)}`)),
    set('limit_conn', field(CONNECTIONS_FIELD), `if ${key} ${hasField(CONNECTIONS_FIELD)}`),
    ...LIMIT_WINDOWS.map(({ name }, counter) => {
      const needed = `{ var(txn.limit_${name}) -m found }${counter === 0 ? ' || { var(txn.limit_conn) -m found }' : ''}`
      return `    http-request track-sc${counter} var(txn.limit_key) table ${limitTable(name)} if ${needed}`
    }),
    ...LIMIT_WINDOWS.map(({ name }, counter) =>
      set('limited', 'str(requests)', `if { var(txn.limit_${name}) -m found } { sc_http_req_rate(${counter}),sub(txn.limit_${name}) -m int gt 0 }`),
    ),
    set('limited', 'str(connections)', 'if { var(txn.limit_conn) -m found } { sc_conn_cur(0),sub(txn.limit_conn) -m int gt 0 }'),
    set('limit_status', field(STATUS_FIELD), `if { var(txn.limited) -m found } ${hasField(STATUS_FIELD)}`),
    set('limit_status', `var(${REQUEST_STATUS_VAR})`, 'if { var(txn.limited) -m str requests } !{ var(txn.limit_status) -m found }'),
    set('limit_status', `var(${CONNECTION_STATUS_VAR})`, 'if { var(txn.limited) -m str connections } !{ var(txn.limit_status) -m found }'),
    set('limit_status', `int(${DEFAULT_REFUSAL_STATUS})`, 'if { var(txn.limited) -m found } !{ var(txn.limit_status) -m found }'),
    ...REFUSAL_STATUSES.map((status) => `    http-request deny deny_status ${status} if { var(txn.limit_status) -m int eq ${status} }`),
  ]
}
