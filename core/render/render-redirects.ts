import { REDIRECT_CODES } from '../annotations/values.ts'
import { REDIRECT_BACKEND } from '../model/backend-ref.ts'
import type { HostConfig, Route } from '../model/derive-host.ts'
import { HTTPS_REDIRECT_CODE, type Hsts } from '../model/host-redirects.ts'
import type { RouteRedirect } from '../model/route-redirect.ts'
import { otherWwwName } from '../model/www-name.ts'
import { FILES } from './files.ts'
import { routeValueEntries, routeValueLookup, type SetVar, type AddEntry } from './route-keys.ts'
import { CLIENT_HTTPS, CLIENT_SCHEME } from './render-scheme.ts'

/**
 * The redirects and HSTS. Every value a user writes (a code, a target, a path, a max-age) is a map
 * value HAProxy reads at request time, so changing it is a runtime map edit; the rules below only
 * change with hapedge. HAProxy takes a redirect's code as a keyword, never from a sample, so each
 * redirect has one rule per code HAProxy allows, and the map value says which applies.
 */

export type RedirectMap =
  | typeof FILES.redirectMap
  | typeof FILES.hstsMap
  | typeof FILES.appRootMap
  | typeof FILES.wwwMap
  | typeof FILES.locationExactMap
  | typeof FILES.locationPrefixMap

/** Between a route's redirect code and its target in the location maps: `301|https://example.com/`. */
const CODE_SEPARATOR = '|'

/** The redirect code of a from-to-www redirect: ingress-nginx's default `http-redirect-code`. */
export const WWW_REDIRECT_CODE = 308

/** The app-root redirect's code, fixed in ingress-nginx. */
export const APP_ROOT_CODE = 302

/** The scheme the request came with, for redirects that keep it (from-to-www, app-root). */
const SCHEME = CLIENT_SCHEME

/** The redirect map's key for the rules without host (force-ssl-redirect), which a host name never is. */
const RULES_WITHOUT_HOST = '/'

/**
 * The map entries of one host's redirects and HSTS, added through `add`. Per host, keyed by the
 * host (`/` for the rules without host): the HTTPS redirect's code and the HSTS value; by the
 * request key of `/`: the app-root path; by the other name: the host it is redirected to.
 * Per route, keyed as the route maps key it
 * (render-maps.ts), for the routes that redirect: the code and target. Values are one line: targets
 * are URLs without whitespace or control characters (values.ts), paths are RFC 3986 paths.
 */
export function redirectEntries(config: HostConfig, add: AddEntry<RedirectMap>): void {
  const { host } = config
  if (config.redirectToHttps) add(FILES.redirectMap, host || RULES_WITHOUT_HOST, String(config.redirectCode ?? HTTPS_REDIRECT_CODE))
  if (config.hsts && host !== '') add(FILES.hstsMap, host, hstsValue(config.hsts))
  if (config.appRoot !== undefined && config.routes.length > 0) add(FILES.appRootMap, `${host}/`, config.appRoot)
  const other = config.fromToWww && config.routes.length > 0 ? otherWwwName(host) : undefined
  if (other) add(FILES.wwwMap, other, host)
  routeValueEntries(add, host, config.routes, LOCATION_MAPS, locationOf)
}

function locationOf(route: Route): string | undefined {
  return route.redirect && locationValue(route.redirect)
}

/** Where a redirecting route's code and target are found: once the route maps picked a route that redirects, the same lookups in these pick its redirect. */
const LOCATION_MAPS = { exact: FILES.locationExactMap, prefix: FILES.locationPrefixMap } as const

/** What the value of a redirect made from the request starts with, which a status code never does. */
const FROM_REQUEST = '~'

/** The port part of such a value when the Location keeps the port the client named. */
const REQUEST_PORT = '*'

/**
 * A URL as `301|https://example.com/`; a redirect made from the request (an HTTPRoute's) as
 * `~301|scheme|host|port`, each part empty where the request's is kept (the port: empty for the
 * scheme's own, `*` for the request's). Its path is the request's, as the route's rewrite left it.
 */
function locationValue(redirect: RouteRedirect): string {
  if ('url' in redirect) return `${redirect.code}${CODE_SEPARATOR}${redirect.url}`
  const { scheme = '', hostname = '', port } = redirect.parts
  const portPart = port === undefined ? '' : port === 'request' ? REQUEST_PORT : String(port)
  return [`${FROM_REQUEST}${redirect.code}`, scheme, hostname, portPart].join(CODE_SEPARATOR)
}

const part = (n: number) => `var(txn.location),field(${n},${CODE_SEPARATOR})`
const FROM_REQUEST_CONDITION = `{ var(txn.location) -m beg ${FROM_REQUEST} }`

/**
 * A redirect made from the request: the scheme, host and port the value names, else the
 * request's (the host as the frontend validated it, `txn.host`); a port the scheme has as its
 * own (http 80, https 443) is not written, as the specification asks; the path and query are the
 * request's, after the route's rewrite.
 */
function requestRedirectRules(set: SetVar): string[] {
  const when = (...conditions: string[]) => `if ${[FROM_REQUEST_CONDITION, ...conditions].join(' ')}`
  const location = (port: string) => `location %[var(txn.rdscheme)]://%[var(txn.rdhost)]${port}%[pathq]`
  return [
    set('rdscheme', part(2), when(`{ ${part(2)} -m str http https }`)),
    set('rdscheme', 'var(txn.scheme)', when('!{ var(txn.rdscheme) -m found }')),
    set('rdhost', part(3), when(`{ ${part(3)} -m reg ^[a-z0-9] }`)),
    set('rdhost', 'var(txn.host)', when('!{ var(txn.rdhost) -m found }')),
    set('rdport', part(4), when(`{ ${part(4)} -m reg ^[0-9]+$ }`)),
    set('rdport', 'req.hdr(host),field(2,:)', when(`{ ${part(4)} -m str ${REQUEST_PORT} }`, '{ req.hdr(host) -m reg ^[^:]+:[0-9]+$ }')),
    '    http-request unset-var(txn.rdport) if { var(txn.rdscheme) -m str http } { var(txn.rdport) -m str 80 }',
    '    http-request unset-var(txn.rdport) if { var(txn.rdscheme) -m str https } { var(txn.rdport) -m str 443 }',
    `    http-request return status 400 content-type text/plain string "400 Bad Request: no valid Host to redirect to" ${when('!{ var(txn.rdhost) -m found }')}`,
    ...REDIRECT_CODES.flatMap((code) => {
      const valued = `{ var(txn.location) -m beg ${FROM_REQUEST}${code}${CODE_SEPARATOR} }`
      return [
        `    http-request redirect ${location(':%[var(txn.rdport)]')} code ${code} if ${valued} { var(txn.rdport) -m found }`,
        `    http-request redirect ${location('')} code ${code} if ${valued}`,
      ]
    }),
  ]
}

/** HSTS's directives without spaces or `;`, which a runtime `set map` command line would split: `max-age=31536000+includeSubDomains+preload`. */
function hstsValue(hsts: Hsts): string {
  return `max-age=${hsts.maxAge}${hsts.includeSubDomains ? '+includeSubDomains' : ''}${hsts.preload ? '+preload' : ''}`
}

/** The directives after max-age, as the map value ends and as the header says them. */
const HSTS_FORMS = [
  ['', ''],
  ['+includeSubDomains', '; includeSubDomains'],
  ['+preload', '; preload'],
  ['+includeSubDomains+preload', '; includeSubDomains; preload'],
] as const

/**
 * From-to-www, right after the exact host lookup: a name no host serves exactly (a wildcard does
 * not count, as a server name beats a wildcard in NGINX) that is the other name of a host asking
 * for it goes to that host, keeping the scheme, the port, the path and the query.
 */
export function wwwRedirectRules(set: SetVar): string[] {
  return [
    set('port', 'req.hdr(host),regsub(^[^:]*,)', 'if { req.hdr(host) -m reg ^[^:]+:[0-9]+$ }'),
    set('www', `var(txn.host),map_str(${FILES.wwwMap}),concat(,txn.port,)`, 'unless { var(txn.vhost) -m found }'),
    `    http-request redirect location ${SCHEME}://%[var(txn.www)]%[pathq] code ${WWW_REDIRECT_CODE} if { var(txn.www) -m found }`,
  ]
}

/** HTTP to HTTPS for the hosts in the redirect map, with the code it gives; and the host's HSTS value, kept for the answer. */
export function httpsRedirectRules(set: SetVar, location: string): string[] {
  return [
    set('hsts', `var(txn.vhost),map_str(${FILES.hstsMap})`, `if ${CLIENT_HTTPS}`),
    set('https', `var(txn.vhost),map_str(${FILES.redirectMap})`, `unless ${CLIENT_HTTPS}`),
    // A valid host that no rule names is served by the rules without host.
    set('https', `str(${RULES_WITHOUT_HOST}),map_str(${FILES.redirectMap})`, `if !${CLIENT_HTTPS} !{ var(txn.vhost) -m found } { var(txn.host) -m found }`),
    ...REDIRECT_CODES.map((code) => `    http-request redirect ${location} code ${code} if { var(txn.https) -m str ${code} }`),
  ]
}

/** A request for `/` of a host with an app-root, once its request key is known: to the same scheme and host (relative when the request named no valid host). */
export function appRootRules(set: SetVar): string[] {
  const redirect = (location: string, ...conditions: string[]) =>
    `    http-request redirect location ${location} code ${APP_ROOT_CODE} if ${['{ var(txn.approot) -m found }', ...conditions].join(' ')}`
  return [
    set('approot', `var(txn.key),map_str(${FILES.appRootMap})`),
    redirect(`${SCHEME}://%[var(txn.host)]%[var(txn.port)]%[var(txn.approot)]`, '{ var(txn.host) -m found }', '{ var(txn.port) -m found }'),
    redirect(`${SCHEME}://%[var(txn.host)]%[var(txn.approot)]`, '{ var(txn.host) -m found }'),
    redirect('%[var(txn.approot)]'),
  ]
}

/** Strict-Transport-Security on every answer to an HTTPS request of a host with HSTS (those HAProxy makes too). */
export function hstsRules(): string[] {
  return HSTS_FORMS.map(
    ([flags, directives]) =>
      `    http-after-response set-header Strict-Transport-Security "%[var(txn.hsts),field(1,+)]${directives}" if { var(txn.hsts) -m reg ^max-age=[0-9]+${flags.replaceAll('+', '\\+')}$ }`,
  )
}

/** Where the routes of redirecting Ingresses go: their code and target looked up as the route was. */
export function redirectBackend(set: SetVar): string[] {
  return [
    `backend ${REDIRECT_BACKEND}`,
    ...routeValueLookup(set, 'location', LOCATION_MAPS),
    ...REDIRECT_CODES.map(
      (code) =>
        `    http-request redirect location %[var(txn.location),field(2,${CODE_SEPARATOR},0)] code ${code} if { var(txn.location) -m beg ${code}${CODE_SEPARATOR} }`,
    ),
    ...requestRedirectRules(set),
    // Only while the maps are being changed entry by entry can a route point here before its target is in.
    '    http-request return status 503 content-type text/plain string "503 Service Unavailable: the redirect is being changed"',
  ]
}
