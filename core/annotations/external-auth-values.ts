import { quote } from '../syntax/fields.ts'
import { templateUrl, URL_CHARACTERS } from './template-url.ts'
import { type Invalid, invalid, parser } from './values.ts'

/**
 * The values of external authentication (ingress-nginx auth-url, auth-signin, …). Each ends up in
 * a map value the shipped Lua reads at request time (render-external-auth.ts), so each is held to
 * characters that cannot end a map line, split its fields (`|`), end a runtime API command (`;`,
 * space) or be read as HAProxy or Lua syntax: nothing an annotation writes is ever run.
 */

/** `$host` in auth-url: the route's own host, written into the map value by the renderer (never the client's Host). */
export const HOST_VARIABLE = '$host'

/**
 * The variables a sign-in URL may hold, read per request by the Lua (as NGINX would): the client's
 * host (the validated `txn.host`), its Host header (host and port), the scheme it used, and the
 * request URI as sent or escaped as a query value.
 */
export const SIGNIN_VARIABLES = ['host', 'http_host', 'scheme', 'request_uri', 'escaped_request_uri'] as const

/** auth-url: the auth service asked before each request; `$host` is the route's host. */
export const authUrl = templateUrl('auth-url', ['host'])

/** auth-signin: where a 401 is redirected, with the variables the Lua reads per request. */
export const authSignin = templateUrl('auth-signin', SIGNIN_VARIABLES)

/** haproxy-ingress's auth-signin is a log-format string: a `%[…]` expression is refused (by templateUrl), a plain URL read as written. */
export const haproxyIngressSignin = templateUrl('auth-signin', [])

/** The methods HAProxy 2.6's HTTP client sends (its Lua HTTPClient has get, head, put, post and delete). */
export const AUTH_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE'] as const
export type AuthMethod = (typeof AUTH_METHODS)[number]

export const authMethod = parser((raw) => {
  const value = raw.trim()
  return (AUTH_METHODS as readonly string[]).includes(value)
    ? (value as AuthMethod)
    : invalid(`${quote(value)} must be one of ${AUTH_METHODS.join(', ')} (the methods HAProxy 2.6's HTTP client sends)`)
})

/** A header name the Lua copies: letters, digits, `-`, `_` and `.` (lower-cased: HAProxy keeps header names so). */
const HEADER_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/

/** Header names, comma-separated, lower-cased and once each; a value in `empty` is none. */
function readHeaderNames(raw: string, empty: readonly string[]): string[] | Invalid {
  const value = raw.trim()
  if (empty.includes(value)) return []
  const names = value
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean)
  if (names.length === 0) return invalid('must list at least one header name')
  const bad = names.find((name) => !HEADER_NAME.test(name) || name.length > 128)
  if (bad !== undefined) return invalid(`${quote(bad)} must be a header name of letters, digits, "-", "_" and "."`)
  return [...new Set(names.map((name) => name.toLowerCase()))]
}

const headerNameList = (empty: readonly string[]) => parser((raw) => readHeaderNames(raw, empty))

/** auth-response-headers: the auth answer's headers copied onto the request the Service receives. */
export const authResponseHeaders = headerNameList([])

/** haproxy-ingress's auth-headers-succeed: a list, or `-` (or empty) for none; its wildcards (`*`, `X-*`) are not read. */
export const haproxyIngressSucceedHeaders = headerNameList(['-', ''])

/** The client's headers the auth service is sent: all (as ingress-nginx sends them), or only these. */
export type RequestHeaders = string[] | 'all'

/**
 * auth-request-headers (haproxy-ingress auth-headers-request): the client's headers the auth
 * service is sent, `*` all (as unset), `-` (or empty) none; haproxy-ingress's wildcards (`X-*`) are not read.
 */
export const authRequestHeaders = parser<RequestHeaders>((raw) => (raw.trim() === '*' ? 'all' : readHeaderNames(raw, ['-', ''])))

/** auth-signin-redirect-param: the query parameter the original URL is sent in (`rd`); empty sends none. */
export const redirectParam = parser((raw) => {
  const value = raw.trim()
  return /^[A-Za-z0-9_.-]{0,64}$/.test(value) ? value : invalid(`${quote(value)} must be a query parameter name (letters, digits, "-", "_", ".")`)
})

/** auth-request-redirect: the X-Auth-Request-Redirect value sent to the auth service, a URL or a path, without variables. */
export const requestRedirect = parser((raw) => {
  const value = raw.trim()
  if (!URL_CHARACTERS.test(value) || value.includes('%['))
    return invalid(`${quote(value)} must be a URL or path of printable characters without spaces, quotes, ";", "|", "#" or "$"`)
  return value
})
