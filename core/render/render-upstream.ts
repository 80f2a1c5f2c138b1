import { caFile } from '../model/backend-ca.ts'
import type { AffinityCookie, HealthCheck, Upstream, UpstreamRetry } from '../model/upstream.ts'

/**
 * A backend's settings from its Ingresses' annotations (upstream.ts) in HAProxy's words: the
 * backend's own lines (balance, cookie) and the options of every server line. Every value was
 * checked where it was read (only names and numbers HAProxy's parser reads as themselves), so
 * nothing here is quoted but the cookie attributes.
 */

/** The backend's lines that choose its server (the balance algorithm, the affinity cookie), its connect timeout and its retries, after the set-timeout rules. */
export function upstreamRules(name: string, upstream: Upstream | undefined): string[] {
  if (!upstream) return []
  const rows: string[] = []
  const { hashBy, balance, cookie, connectTimeout, retry } = upstream
  if (hashBy) {
    const algorithm = 'source' in hashBy ? 'source' : 'uri' in hashBy ? 'uri' : 'header' in hashBy ? `hdr(${hashBy.header})` : `hash req.cook(${hashBy.cookie})`
    // Consistent hashing keeps most keys on their server when servers come and go, and is dynamic (runtime `add server` needs that).
    rows.push(`balance ${algorithm}`, 'hash-type consistent')
  } else if (balance) rows.push(`balance ${balance}`)
  if (cookie) rows.push(cookieLine(cookie), `dynamic-cookie-key ${name}`)
  if (cookie?.conditionalSameSiteNone) rows.push(...sameSiteNoneLeftOff(cookie.name))
  if (connectTimeout !== undefined) rows.push(`timeout connect ${connectTimeout}`)
  if (retry) rows.push(...retryLines(retry))
  if (upstream.check?.path) rows.push(`option httpchk GET ${upstream.check.path}`)
  return rows.map((row) => `    ${row}`)
}

/**
 * NGINX passes a failed request to the next server; HAProxy retries on the same one unless told to
 * redispatch, and retries any method: POST, LOCK and PATCH are kept from being replayed unless
 * `non_idempotent` was asked for (a connection that failed before the request went out is still retried).
 */
function retryLines(retry: UpstreamRetry): string[] {
  const rows = [`retry-on ${retry.on.join(' ')}`]
  if (retry.on[0] === 'none') return rows
  if (retry.retries !== undefined) rows.push(`retries ${retry.retries}`)
  rows.push('option redispatch 1')
  if (!retry.nonIdempotent) rows.push('http-request disable-l7-retry if { method POST LOCK PATCH }')
  return rows
}

/**
 * The browsers Chromium lists as rejecting `SameSite=None` ("SameSite=None: Known Incompatible
 * Clients"): Chrome and Chromium 51 to 66, UC Browser before 12.13.2, every browser on iOS 12, and
 * Safari and embedded browsers on macOS 10.14 (those that name no Chrome). Fixed text, strongly
 * quoted so that HAProxy reads the regular expressions as written: none of it comes from a cluster.
 */
const REJECTS_SAMESITE_NONE = [
  String.raw`{ req.fhdr(user-agent) -m reg 'Chrom(e|ium)/(5[1-9]|6[0-6])\.|UCBrowser/([0-9]|1[01])\.|UCBrowser/12\.([0-9]|1[0-2])\.|UCBrowser/12\.13\.[01]\b|\(iP(hone|ad|od);.*\sOS\s12[_0-9]*.*\)\sAppleWebKit/' }`,
  String.raw`{ req.fhdr(user-agent) -m reg '\(Macintosh;.*Mac\sOS\sX\s10_14[_0-9]*.*\)\sAppleWebKit/' } !{ req.fhdr(user-agent) -m sub Chrome Chromium }`,
].join(' or ')

/**
 * session-cookie-conditional-samesite-none: the cookie HAProxy inserts loses its SameSite=None for
 * those browsers. The cookie is inserted after the `http-response` rules, so only an
 * `http-after-response` rule sees it. The name is an HAPROXY_WORD; its regex characters are escaped.
 */
function sameSiteNoneLeftOff(cookie: string): string[] {
  const name = cookie.replace(/[*+.^|]/g, '\\$&')
  return [
    `http-request set-var(txn.samesite_none_rejected) bool(true) if ${REJECTS_SAMESITE_NONE}`,
    `http-after-response replace-header Set-Cookie '^(${name}=[^;]*(;.*)?);\\sSameSite=None(;.*)?$' '\\1\\3' if { var(txn.samesite_none_rejected) -m bool }`,
  ]
}

/**
 * `insert indirect nocache dynamic`: HAProxy sets the cookie when it picks a server, strips it
 * from requests, keeps it out of shared caches, and derives each server's value from its address
 * (so a slot moved at runtime to another endpoint gets another value, and its old clients are balanced again).
 */
function cookieLine(cookie: AffinityCookie): string {
  const words = ['cookie', cookie.name, 'insert', 'indirect', 'nocache', 'dynamic']
  if (cookie.secure) words.push('secure')
  if (cookie.httpOnly) words.push('httponly')
  if (cookie.domain) words.push('domain', cookie.domain)
  if (cookie.path) words.push('attr', `"Path=${cookie.path}"`)
  if (cookie.maxAge !== undefined) words.push('attr', `"Max-Age=${cookie.maxAge}"`)
  if (cookie.sameSite) words.push('attr', `"SameSite=${cookie.sameSite}"`)
  if (cookie.partitioned) words.push('attr', '"Partitioned"')
  return words.join(' ')
}

/** What every server line of the backend carries after its address (`add server` takes no default-server, so each line says it all). */
export function serverOptions(upstream: Upstream | undefined): string {
  return protocolOptions(upstream) + checkOptions(upstream?.check)
}

/** `check` and its timing: a server added at runtime has its checks enabled by the agent (`enable health`). */
function checkOptions(check: HealthCheck | undefined): string {
  if (!check) return ''
  const words = ['check']
  if (check.interval !== undefined) words.push('inter', String(check.interval))
  if (check.rise !== undefined) words.push('rise', String(check.rise))
  if (check.fall !== undefined) words.push('fall', String(check.fall))
  return ` ${words.join(' ')}`
}

function protocolOptions(upstream: Upstream | undefined): string {
  const protocol = upstream?.protocol
  if (!protocol) return ''
  if (protocol === 'GRPC' || protocol === 'H2C') return ' proto h2'
  const tls = upstream.tls
  const words = ['ssl']
  if (tls?.ca) {
    words.push('verify', 'required', 'ca-file', caFile(tls.ca))
    if (tls.name) words.push('verifyhost', tls.name)
  } else words.push('verify', 'none')
  if (tls?.sni && tls.name) words.push('sni', `str(${tls.name})`)
  if (protocol === 'GRPCS') words.push('alpn', 'h2')
  return ` ${words.join(' ')}`
}
