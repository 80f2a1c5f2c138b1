import type { HostConfig, Route } from '../model/derive-host.ts'
import type { RouteCors } from '../model/route-cors.ts'
import { FILES } from './files.ts'
import { routeValueEntries, routeValueLookup, type SetVar, type AddEntry } from './route-keys.ts'

/**
 * CORS per route (enable-cors and its settings), all of it map values HAProxy reads at request
 * time, so enabling, disabling or changing it (an origin, a header list, credentials) is a runtime
 * map edit; the rules only change with hapedge.
 *
 * The route maps hold a route's policy: `<mode>/<methods>/<headers>/<expose>/<max-age>/<credentials>/<id>`,
 * mode `any` (answered `*`) or `list`, `off` for a route of the host without CORS (so the
 * longest-prefix lookup never falls through to another route's). No field but the last can hold a
 * `/` (methods, header names, numbers: route-cors.ts), so the id, the route's own name, is read
 * from the 7th field to the end. The origins map holds `<id>|<origin>` for each origin a `list`
 * route allows; a request's Origin is looked up as it is, then as `<scheme>//*.<parent>` for the
 * origins that allow one label of subdomain.
 */

export type CorsMap = typeof FILES.corsExactMap | typeof FILES.corsPrefixMap | typeof FILES.corsOriginsMap

const CORS_MAPS = { exact: FILES.corsExactMap, prefix: FILES.corsPrefixMap } as const
const OFF = 'off'

/** A route's own name in the origins map: its host and path, `^` after an Exact one (no path holds `^`), unique in the cluster. */
function routeId(host: string, route: Route): string {
  return `${host}${route.path}${route.match === 'Exact' ? '^' : ''}`
}

function policy(cors: RouteCors, id: string): string {
  const mode = cors.origins === '*' ? 'any' : 'list'
  return [mode, cors.methods, cors.headers, cors.expose, cors.maxAge, cors.credentials, id].join('/')
}

/** The CORS map entries of one host, added through `add`: the route maps keyed as the route maps key its routes, and the origins. */
export function corsEntries(config: HostConfig, add: AddEntry<CorsMap>): void {
  const { host, routes } = config
  routeValueEntries(add, host, routes, CORS_MAPS, policyOf, OFF)
  for (const route of routes) {
    const origins = route.cors?.origins
    if (Array.isArray(origins)) for (const origin of new Set(origins)) add(FILES.corsOriginsMap, `${routeId(host, route)}|${origin}`, '1')
  }
}

function policyOf(route: Route, host: string): string | undefined {
  return route.cors && policy(route.cors, routeId(host, route))
}

/** An Origin header as browsers serialize one (lowercase scheme and host, a port): the only value echoed back. */
const ORIGIN = '^https?://[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*(:[0-9]{1,5})?$'
const field = (n: number) => `var(txn.cors),field(${n},/)`
const allowed = (key: string) => `{ var(txn.cors_id),concat(|,${key}),map_str(${FILES.corsOriginsMap}) -m found }`

/**
 * In the frontend, once the request key is known and before access is checked: the route's policy,
 * the allowed origin to answer with (`txn.cors_origin`: `*`, or the request's one Origin when the
 * route lists it), and a preflight (OPTIONS with Origin and Access-Control-Request-Method) from an
 * allowed origin answered 204 by HAProxy itself. Before source ranges and basic authentication,
 * as ingress-nginx answers it: browsers send a preflight without credentials, and the answer
 * holds only the route's CORS policy; it never reaches the Service.
 */
export function corsRequestRules(set: SetVar): string[] {
  const found = '{ var(txn.origin) -m found }'
  const preflight = [
    '    http-request return status 204',
    'hdr Access-Control-Allow-Origin %[var(txn.cors_origin)]',
    `hdr Access-Control-Allow-Methods %[${field(2)}]`,
    `hdr Access-Control-Allow-Headers %[${field(3)}]`,
    `hdr Access-Control-Max-Age %[${field(5)}]`,
  ].join(' ')
  const when = 'if METH_OPTIONS { req.fhdr_cnt(origin) gt 0 } { req.fhdr_cnt(access-control-request-method) gt 0 } { var(txn.cors_origin) -m found }'
  return [
    ...routeValueLookup(set, 'cors', CORS_MAPS),
    // One Origin header, well formed, on a route that lists origins: never a list of them, nor one that would break a header.
    set('origin', 'req.fhdr(origin),lower', `if { var(txn.cors) -m beg list/ } { req.fhdr_cnt(origin) eq 1 } { req.fhdr(origin),lower -m reg ${ORIGIN} }`),
    set('cors_id', 'var(txn.cors),field(7,/,0)', `if ${found}`),
    set('cors_origin', 'var(txn.origin)', `if ${found} ${allowed('txn.origin')}`),
    set('cors_parent', 'var(txn.origin),field(3,/),field(2,.,0)', `if ${found} !{ var(txn.cors_origin) -m found }`),
    set('cors_wild', 'var(txn.origin),field(1,/),concat(//*.,txn.cors_parent)', 'if { var(txn.cors_parent) -m len ge 1 }'),
    set('cors_origin', 'var(txn.origin)', `if { var(txn.cors_wild) -m found } ${allowed('txn.cors_wild')}`),
    set('cors_origin', 'str(*)', 'if { var(txn.cors) -m beg any/ }'),
    `${preflight} hdr Access-Control-Allow-Credentials true hdr Vary Origin ${when} { ${field(6)} -m str true }`,
    `${preflight} hdr Vary Origin ${when}`,
  ]
}

/**
 * In the frontend, on the Service's answers: the allowed origin, credentials and exposed headers
 * (set, replacing the Service's own), and `Vary: Origin` on every answer of a route that lists
 * origins, since whether it carries them depends on the request's Origin.
 */
export const CORS_RESPONSE_RULES: readonly string[] = [
  '    http-response set-header Access-Control-Allow-Origin %[var(txn.cors_origin)] if { var(txn.cors_origin) -m found }',
  `    http-response set-header Access-Control-Allow-Credentials true if { var(txn.cors_origin) -m found } { ${field(6)} -m str true }`,
  `    http-response set-header Access-Control-Expose-Headers %[${field(4)}] if { var(txn.cors_origin) -m found } { ${field(4)} -m len ge 1 }`,
  '    http-response add-header Vary Origin if { var(txn.cors) -m beg list/ }',
]
