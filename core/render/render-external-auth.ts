import { HOST_VARIABLE } from '../annotations/external-auth-values.ts'
import type { ExternalAuth } from '../model/external-auth.ts'
import type { HostConfig, Route } from '../model/derive-host.ts'
import { EXTERNAL_AUTH_ACTION } from './external-auth-lua.ts'
import { FILES } from './files.ts'
import { routeValueEntries, routeValueLookup, type SetVar, type AddEntry } from './route-keys.ts'

/**
 * External authentication: a route's auth service, method, sign-in URL and copied headers are one
 * map value the shipped Lua reads at request time (external-auth-lua.ts), so any change of them is
 * a runtime map edit; the rules and the Lua are the same for every cluster, so the first Ingress
 * that asks for external authentication needs no reload either.
 */

/** The Lua file every generation ships and loads (relative to the configuration directory). */
export const EXTERNAL_AUTH_LUA_FILE = 'lua/external-auth.lua'

export type ExternalAuthMap = typeof FILES.externalAuthExactMap | typeof FILES.externalAuthPrefixMap

const EXTERNAL_AUTH_MAPS = { exact: FILES.externalAuthExactMap, prefix: FILES.externalAuthPrefixMap } as const

/** Between the fields of a map value: no field can hold it (external-auth-values.ts). */
const SEPARATOR = '|'

/** A field not given, and what a route of such a host without external authentication has: never a method, which the Lua needs. */
const NONE = '-'

/**
 * The external authentication entries of one host, keyed as the route maps key its routes; when one
 * route has external authentication every route of the host has an entry (NONE when it has none),
 * so a longer path of another Ingress never falls through to a shorter one's auth service.
 */
export function externalAuthEntries(config: HostConfig, add: AddEntry<ExternalAuthMap>): void {
  routeValueEntries(add, config.host, config.routes, EXTERNAL_AUTH_MAPS, externalAuthOf, NONE)
}

function externalAuthOf(route: Route, host: string): string | undefined {
  return route.externalAuth && externalAuthValue(route.externalAuth, host)
}

/**
 * `METHOD|URL|SIGNIN|HEADERS|REQUEST_REDIRECT[|REQUEST_HEADERS]`, with `$host` in the URL the route's
 * own host (a rule with `$host` has a host: external-auth-notices.ts); the client's headers sent
 * are named only when not all of them are.
 */
export function externalAuthValue(auth: ExternalAuth, host: string): string {
  const fields = [
    auth.method,
    auth.url.replaceAll(HOST_VARIABLE, host),
    auth.signin ?? NONE,
    auth.responseHeaders.join(',') || NONE,
    auth.requestRedirect ?? NONE,
  ]
  if (auth.requestHeaders) fields.push(auth.requestHeaders.join(',') || NONE)
  return fields.join(SEPARATOR)
}

/** In the frontend, once the request key is known: the route's external authentication, looked up as its backend was. */
export function externalAuthLookupRules(set: SetVar): string[] {
  return routeValueLookup(set, 'extauth', EXTERNAL_AUTH_MAPS)
}

const ASKED = '{ var(txn.extauth) -m reg ^[A-Z] }'
const VERDICT = (verdict: string) => `{ var(txn.extauthverdict) -m str ${verdict} }`
const answer = (status: number, text: string) => `    http-request return status ${status} content-type text/plain string "${status} ${text}"`

/**
 * After the source ranges and basic authentication: the auth service asked, then its verdict
 * answered as ingress-nginx does (2xx passes, 401 answered or redirected to auth-signin, 403
 * answered), and every other outcome, an unreachable or slow service or an error in the script
 * included, a 500: the request is never let through without a "pass".
 */
export const EXTERNAL_AUTH_RULES: readonly string[] = [
  `    http-request lua.${EXTERNAL_AUTH_ACTION} if ${ASKED}`,
  `    http-request redirect location %[var(txn.extauthlocation)] code 302 if ${ASKED} ${VERDICT('signin')}`,
  `${answer(401, 'Unauthorized')} hdr WWW-Authenticate "%[var(txn.extauthchallenge)]" if ${ASKED} ${VERDICT('401')} { var(txn.extauthchallenge) -m found }`,
  `${answer(401, 'Unauthorized')} if ${ASKED} ${VERDICT('401')}`,
  `${answer(403, 'Forbidden')} if ${ASKED} ${VERDICT('403')}`,
  `${answer(500, 'Internal Server Error: the authentication service gave no answer')} if ${ASKED} !${VERDICT('pass')}`,
]
