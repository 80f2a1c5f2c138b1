import type { HeaderVariable } from './header-variables.ts'
import { z } from 'zod'
import { hostname, httpPath, isIpv4, isIpv6, quote } from '../syntax/fields.ts'

/**
 * Parsers from an annotation's string (Kubernetes keeps every value as a string) to the typed value
 * hapedge renders from. Each controller writes some values its own way (ingress-nginx's timeouts are
 * bare seconds, haproxy-ingress's are HAProxy times, NGINX's sizes are `8m`): one parser per
 * written form, all landing on the same unit (milliseconds, bytes, seconds).
 */

/** Why a value cannot be read: a parse function returns one instead of the typed value. */
export class Invalid {
  constructor(readonly message: string) {}
}

export const invalid = (message: string) => new Invalid(message)

/** A string schema from a function that returns the typed value or `invalid(reason)`. */
export function parser<T>(parse: (value: string) => T | Invalid): z.ZodType<T, string> {
  return z.string().transform((value, ctx) => {
    const result = parse(value)
    if (!(result instanceof Invalid)) return result
    ctx.addIssue({ code: 'custom', message: result.message })
    return z.NEVER
  }) as unknown as z.ZodType<T, string>
}

/** hapedge's own flags: exactly `"true"` or `"false"`, as its settings ConfigMap. */
export const flag = z.enum(['true', 'false'], invalid('must be "true" or "false"')).transform((value) => value === 'true')

/** Other controllers' flags, whose users also write `"True"` or `"FALSE"`. */
export const looseFlag = parser((value) => {
  const lower = value.trim().toLowerCase()
  return lower === 'true' ? true : lower === 'false' ? false : invalid(`${quote(value)} must be "true" or "false"`)
})

const MS_PER: Record<string, number> = { us: 0.001, ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }
/** The longest timeout HAProxy accepts: 2^31 - 1 ms (about 24.8 days). */
export const MAX_TIMEOUT_MS = 2_147_483_647

function timeout(ms: number, value: string): number | Invalid {
  if (ms <= 0) return invalid(`${quote(value)} must be longer than zero`)
  if (ms > MAX_TIMEOUT_MS) return invalid(`${quote(value)} is longer than HAProxy's longest timeout (24 days)`)
  return Math.ceil(ms)
}

/** An HAProxy time (configuration.txt §2.5): a number with `us`, `ms` (the default), `s`, `m`, `h` or `d`; in milliseconds. */
export const haproxyTime = parser((value) => {
  const match = /^(\d{1,10})(us|ms|s|m|h|d)?$/.exec(value.trim())
  if (!match) return invalid(`${quote(value)} must be an HAProxy time such as "30s", "500ms" or "1h"`)
  return timeout(Number(match[1]) * MS_PER[match[2] ?? 'ms']!, value)
})

/** ingress-nginx's timeouts: bare whole seconds (`"120"`); in milliseconds. */
export const secondsTime = parser((value) => {
  if (!/^\d{1,7}$/.test(value.trim())) return invalid(`${quote(value)} must be a whole number of seconds such as "60"`)
  return timeout(Number(value.trim()) * 1000, value)
})

const NGINX_MS_PER: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 }

/** An NGINX time (`30s`, `1m`, seconds when bare), as NGINX Inc.'s controller writes timeouts; in milliseconds. */
export const nginxTime = parser((value) => {
  const match = /^(\d{1,10})(ms|s|m|h|d|w)?$/.exec(value.trim())
  if (!match) return invalid(`${quote(value)} must be an NGINX time such as "60s" or "1m"`)
  return timeout(Number(match[1]) * NGINX_MS_PER[match[2] ?? 's']!, value)
})

/** A whole number from `min` to `max`, written with at most `digits` digits (a longer one, leading zeros and all, is refused). */
export function wholeNumber(min: number, max: number, digits = 10) {
  const written = new RegExp(`^\\d{1,${digits}}$`)
  return parser((value) => {
    const text = value.trim()
    const count = written.test(text) ? Number(text) : Number.NaN
    return count >= min && count <= max ? count : invalid(`${quote(value)} must be a whole number from ${min} to ${max}`)
  })
}

/** A whole number of seconds, zero allowed (HSTS and CORS max-age, cookie lifetimes). */
export const seconds = parser((value) =>
  /^\d{1,10}$/.test(value.trim()) ? Number(value.trim()) : invalid(`${quote(value)} must be a whole number of seconds`),
)

/** haproxytech's `time` type (a number, milliseconds unless `s` and so on), as whole seconds: its CORS max-age. */
export const secondsFromHaproxyTime = parser((value) => {
  const match = /^(\d{1,10})(us|ms|s|m|h|d)?$/.exec(value.trim())
  if (!match) return invalid(`${quote(value)} must be a time such as "5s" or "1m"`)
  return Math.floor((Number(match[1]) * MS_PER[match[2] ?? 'ms']!) / 1000)
})

/** A request body limit in bytes; `null` is no limit. */
export type BodySize = number | null

const BYTES_PER: Record<string, number> = { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 }

function bytes(amount: string, unit: string, value: string): BodySize | Invalid {
  const size = Number(amount) * BYTES_PER[unit.toLowerCase()]!
  return Number.isSafeInteger(size) ? size : invalid(`${quote(value)} is too large`)
}

/** An NGINX size (`1000`, `8k`, `8m`, `1g`, either case); `0` means no limit, as `client_max_body_size 0`. */
export const nginxSize = parser((value) => {
  const match = /^(\d{1,12})([kKmMgG]?)$/.exec(value.trim())
  if (!match) return invalid(`${quote(value)} must be a size such as "8m", "512k" or "0" (no limit)`)
  return /^0+$/.test(match[1]!) ? null : bytes(match[1]!, match[2]!, value)
})

/** hapedge's and haproxy-ingress's body size: bytes with an optional `k`, `m` or `g`, or `unlimited`. */
export const haproxySize = parser((value) => {
  if (value.trim() === 'unlimited') return null
  const match = /^(\d{1,12})([kmg]?)$/.exec(value.trim())
  if (!match) return invalid(`${quote(value)} must be a size such as "8m", "512k" or "unlimited"`)
  return /^0+$/.test(match[1]!) ? invalid(`${quote(value)} must be larger than zero (or "unlimited")`) : bytes(match[1]!, match[2]!, value)
})

/** Source ranges as HAProxy's `src` ACL reads them: IPv4 or IPv6, with or without a prefix length. */
export interface SourceRanges {
  ranges: string[]
  /** haproxy-ingress's `!` entries: exceptions to the list they appear in. */
  exceptions: string[]
}

function cidr(entry: string): string | Invalid {
  const [address = '', prefix, extra] = entry.split('/')
  if (extra !== undefined) return invalid(`${quote(entry)} must be an IP address or CIDR`)
  const v4 = isIpv4(address)
  if (!v4 && !isIpv6(address)) return invalid(`${quote(entry)} must be an IPv4 or IPv6 address or CIDR such as "10.0.0.0/8"`)
  if (prefix === undefined) return address
  const max = v4 ? 32 : 128
  if (!/^\d{1,3}$/.test(prefix) || Number(prefix) > max) return invalid(`${quote(entry)} has a prefix length outside 0 to ${max}`)
  return `${address}/${Number(prefix)}`
}

function sourceRanges(allowExceptions: boolean) {
  return parser<SourceRanges>((value) => {
    const entries = value
      .split(',')
      .map((entry) => entry.trim())
      .filter(Boolean)
    if (entries.length === 0) return invalid('must list at least one IP address or CIDR')
    const result: SourceRanges = { ranges: [], exceptions: [] }
    for (const entry of entries) {
      const except = entry.startsWith('!')
      if (except && !allowExceptions) return invalid(`${quote(entry)}: "!" exceptions are haproxy-ingress's, not this annotation's`)
      const parsed = cidr(except ? entry.slice(1) : entry)
      if (typeof parsed !== 'string') return parsed
      ;(except ? result.exceptions : result.ranges).push(parsed)
    }
    return result
  })
}

/** A comma-separated list of IP addresses and CIDRs. */
export const cidrList = sourceRanges(false)
/** haproxy-ingress's list, whose entries may be `!` exceptions (its keys.md, Allowlist). */
export const cidrListWithExceptions = sourceRanges(true)

/** A status code out of the ones a construct accepts. */
export function statusCode(allowed: readonly number[]) {
  return parser((value) => {
    const code = Number(value.trim())
    return allowed.includes(code) && /^\d{3}$/.test(value.trim()) ? code : invalid(`${quote(value)} must be one of ${allowed.join(', ')}`)
  })
}

/** Codes HAProxy's `redirect` accepts (configuration.txt §4.2, redirect). */
export const REDIRECT_CODES = [301, 302, 303, 307, 308] as const

/**
 * An absolute http(s) URL written literally: no whitespace or control characters, and no NGINX
 * variable (`$host`, `$request_uri`), which HAProxy would send as text.
 */
export const absoluteUrl = parser((value) => {
  if (/[\s\u0000-\u001f\u007f]/.test(value)) return invalid(`${quote(value)} must not contain whitespace or control characters`)
  if (value.includes('$')) return invalid(`${quote(value)} contains an NGINX variable ("$…"), which hapedge cannot expand`)
  const url = httpUrl(value, value, 'https://example.com/')
  return url instanceof URL ? value : url
})

/** `checked` read as an absolute http or https URL, or why not (naming `written`, what the annotation holds, and an `example`). */
export function httpUrl(checked: string, written: string, example: string): URL | Invalid {
  let url: URL
  try {
    url = new URL(checked)
  } catch {
    return invalid(`${quote(written)} must be an absolute URL such as "${example}"`)
  }
  return url.protocol === 'http:' || url.protocol === 'https:' ? url : invalid(`${quote(written)} must be an http or https URL`)
}

/** An absolute request path (the Ingress API's characters). */
export const absolutePath = httpPath

/** A rewrite target: an absolute path whose `$1`…`$9` refer to the path's capture groups. */
export const rewriteTarget = httpPath

/** Host names, comma-separated (`server-alias`). */
export const hostList = parser((value) => {
  const hosts = value
    .split(',')
    .map((host) => host.trim())
    .filter(Boolean)
  if (hosts.length === 0) return invalid('must list at least one host name')
  for (const host of hosts) {
    const result = hostname.safeParse(host)
    if (!result.success) return invalid(result.error.issues[0]?.message ?? `${quote(host)} must be a host name`)
  }
  return hosts
})

/** A Secret or ConfigMap named in an annotation: `name`, or `namespace/name` when another namespace's. */
export interface ObjectRef {
  namespace?: string
  name: string
}

const NAME = /^[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?$/
const NAMESPACE = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/

export const objectRef = parser<ObjectRef>((value) => {
  const parts = value.trim().split('/')
  const [first = '', second] = parts
  if (parts.length > 2) return invalid(`${quote(value)} must be "name" or "namespace/name"`)
  if (second === undefined) return NAME.test(first) ? { name: first } : invalid(`${quote(value)} must be an object name`)
  if (!NAMESPACE.test(first)) return invalid(`${quote(first)} must be a namespace name`)
  if (!NAME.test(second)) return invalid(`${quote(second)} must be an object name`)
  return { namespace: first, name: second }
})

/** An HTTP header name: an RFC 9110 token. */
export const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/
/** A header value: visible characters, spaces and tabs (RFC 9110 field-value), nothing that ends a line. */
export const FIELD_VALUE = /^[\t\u0020-\u007e\u0080-\uffff]*$/

function tokenList(what: string, allowStar: boolean) {
  return parser((value) => {
    const items = value
      .split(',')
      .map((item) => item.trim())
      .filter(Boolean)
    if (items.length === 0) return invalid(`must list at least one ${what}`)
    const bad = items.find((item) => !(TOKEN.test(item) || (allowStar && item === '*')))
    return bad === undefined ? items : invalid(`${quote(bad)} must be a ${what}`)
  })
}

/** Header names, comma-separated. */
export const headerNames = tokenList('header name', false)
/** Header names or `*`, comma-separated (CORS expose-headers). */
export const headerNamesOrStar = tokenList('header name or "*"', true)

/** HTTP methods, comma-separated, upper-cased (`*` allowed, as haproxytech writes "all"). */
export const methodList = parser((value) => {
  const methods = value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean)
  if (methods.length === 0) return invalid('must list at least one HTTP method')
  const bad = methods.find((method) => !/^[A-Za-z]+$/.test(method) && method !== '*')
  return bad === undefined ? methods.map((method) => method.toUpperCase()) : invalid(`${quote(bad)} must be an HTTP method`)
})

export interface Header {
  name: string
  value: string
  /** An NGINX snippet's value that is one variable (`$req_id`): the value is then empty, and HAProxy fills it in per request. */
  variable?: HeaderVariable
}

function header(name: string, value: string, line: string): Header | Invalid {
  if (!TOKEN.test(name)) return invalid(`${quote(line)}: ${quote(name)} must be a header name`)
  if (!FIELD_VALUE.test(value)) return invalid(`${quote(line)}: the value must not contain control characters`)
  return { name, value }
}

/**
 * Headers one per line as haproxytech writes them (`Name value`, the value possibly quoted) or as
 * haproxy-ingress does (`name: value`).
 */
export const headerLines = parser((value) => {
  const lines = value
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
  if (lines.length === 0) return invalid('must set at least one header')
  const headers: Header[] = []
  for (const line of lines) {
    const match = /^([^\s:]+):?\s+(.*)$/.exec(line) ?? /^([^\s:]+):()$/.exec(line)
    if (!match) return invalid(`${quote(line)} must be "Name value"`)
    const raw = match[2]!.trim()
    const unquoted = /^"(.*)"$/.exec(raw)?.[1] ?? raw
    const parsed = header(match[1]!, unquoted, line)
    if (parsed instanceof Invalid) return parsed
    headers.push(parsed)
  }
  return headers
})

/** NGINX Inc.'s `proxy-set-headers`: `name: value` pairs separated by commas. */
export const headerPairs = parser((value) => {
  const headers: Header[] = []
  for (const pair of value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean)) {
    const at = pair.indexOf(':')
    if (at < 0) return invalid(`${quote(pair)} must be "name: value" (a name alone copies the client's header, which hapedge does already)`)
    const parsed = header(pair.slice(0, at).trim(), pair.slice(at + 1).trim(), pair)
    if (parsed instanceof Invalid) return parsed
    headers.push(parsed)
  }
  return headers.length > 0 ? headers : invalid('must set at least one header')
})

/** Which origins CORS allows: any, a list (each echoed back when it matches), or haproxytech's regular expression. */
export type CorsOrigins = { any: true } | { origins: string[] } | { pattern: string }

const ORIGIN = /^https?:\/\/(\*\.)?[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*(:\d{1,5})?$/

/** ingress-nginx's and haproxy-ingress's `cors-allow-origin`: `*` or origins, comma-separated (`https://*.example.com` allowed). */
export const corsOrigins = parser<CorsOrigins>((value) => {
  const items = value
    .split(',')
    .map((item) => item.trim().toLowerCase())
    .filter(Boolean)
  if (items.length === 0) return invalid('must be "*" or list at least one origin')
  if (items.includes('*')) return items.length === 1 ? { any: true } : invalid('"*" cannot be combined with origins')
  const bad = items.find((item) => !ORIGIN.test(item))
  return bad === undefined ? { origins: items } : invalid(`${quote(bad)} must be an origin such as "https://example.com" or "https://*.example.com:8443"`)
})

/** haproxytech's `cors-allow-origin`: `*`, one origin, or a regular expression matched against `Origin`. */
export const corsOriginOrPattern = parser<CorsOrigins>((value) => {
  const trimmed = value.trim()
  if (trimmed === '*') return { any: true }
  if (ORIGIN.test(trimmed.toLowerCase())) return { origins: [trimmed.toLowerCase()] }
  if (/[\s\u0000-\u001f]/.test(trimmed) || trimmed === '') return invalid(`${quote(value)} must be "*", an origin or a regular expression`)
  try {
    new RegExp(trimmed)
  } catch {
    return invalid(`${quote(value)} is not a valid regular expression`)
  }
  return { pattern: trimmed }
})

/** A cookie name: an RFC 6265 token. */
/** What HAProxy's parser reads as itself in a cookie name, header name or SNI: no quote, escape, comment, `$`, space, `(`, `)` or `,`. */
export const HAPROXY_WORD = /^[A-Za-z0-9!*+.^_|~-]+$/

/** A cookie attribute HAProxy writes quoted (`attr "Path=…"`): printable, without `;`, `"`, `\` or `$`. */
export const isCookieAttribute = (text: string) => /^[\x21-\x7e]+$/.test(text) && !/[;"\\$]/.test(text)

export const cookieName = parser((value) => (TOKEN.test(value.trim()) ? value.trim() : invalid(`${quote(value)} must be a cookie name (an RFC 6265 token)`)))

/** A cookie's SameSite attribute, capitalised as browsers document it. */
export const sameSite = parser((value) => {
  const known = ['None', 'Lax', 'Strict'] as const
  const found = known.find((name) => name.toLowerCase() === value.trim().toLowerCase())
  return found ?? invalid(`${quote(value)} must be None, Lax or Strict`)
})

/** A cookie's Domain attribute. */
export const cookieDomain = parser((value) => {
  const domain = value.trim().replace(/^\./, '')
  return hostname.safeParse(domain).success && !domain.startsWith('*') ? domain : invalid(`${quote(value)} must be a domain name`)
})

/** One of a few words, matched without regard to case, returned as the canonical spelling. */
export function oneOf<const T>(words: Readonly<Record<string, T>>, describe: string) {
  return parser<T>((value) => words[value.trim().toLowerCase()] ?? invalid(`${quote(value)} must be ${describe}`))
}

/** How a backend is spoken to: TLS or not, HTTP/1.1 or HTTP/2 (gRPC is HTTP/2). */
export type BackendProtocol = 'HTTP' | 'HTTPS' | 'GRPC' | 'GRPCS' | 'H2C'

/** How `upstream-hash-by` picks a server: a consistent hash of what. */
export type HashBy = { source: true } | { header: string } | { cookie: string } | { uri: true }

/** ingress-nginx's `upstream-hash-by`, limited to the one-variable forms HAProxy's `balance` has. */
export const nginxHashBy = parser<HashBy>((value) => {
  const variable = value.trim().replace(/^\$\{(.*)\}$/, '$$$1')
  if (variable === '$remote_addr' || variable === '$binary_remote_addr') return { source: true }
  if (variable === '$request_uri' || variable === '$uri') return { uri: true }
  const header = /^\$http_([a-z0-9_]+)$/.exec(variable)
  if (header) return { header: header[1]!.replaceAll('_', '-') }
  const cookie = /^\$cookie_([A-Za-z0-9_]+)$/.exec(variable)
  if (cookie) return { cookie: cookie[1]! }
  return invalid(`${quote(value)} must be one NGINX variable: $remote_addr, $request_uri, $http_<header> or $cookie_<name>`)
})

/** hapedge's own spelling of a hash key: `source`, `uri`, `header:<name>` or `cookie:<name>`. */
export const hashBy = parser<HashBy>((value) => {
  const [kind, name] = value.trim().split(':', 2) as [string, string | undefined]
  if (kind === 'source' && name === undefined) return { source: true }
  if (kind === 'uri' && name === undefined) return { uri: true }
  if (kind === 'header' && name && TOKEN.test(name)) return { header: name.toLowerCase() }
  if (kind === 'cookie' && name && TOKEN.test(name)) return { cookie: name }
  return invalid(`${quote(value)} must be "source", "uri", "header:<name>" or "cookie:<name>"`)
})
