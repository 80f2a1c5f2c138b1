import { REDIRECT_CODES } from '../annotations/values.ts'
import { httpRouteFilter, type HeaderModifier, type HttpRouteFilter, type PathModifier } from '../kube/gateway-http-filter.ts'
import type { HttpRouteMatch, HttpRouteRule } from '../kube/gateway-http-route.ts'
import { httpPath, isHostnameField, quote } from '../syntax/fields.ts'
import { REDIRECT_BACKEND } from './backend-ref.ts'
import type { Route } from './derive-host.ts'
import { readRuleTimeouts } from './gateway-timeouts.ts'
import { readRequestMirror, type MirrorResolution } from './gateway-mirror.ts'
import { CONTROL_CHARACTER, compareRules, type HeaderValue, MAX_HEADER_RULES, refusedHeader, RULE_SEPARATOR } from './header-rules.ts'
import type { RedirectParts, RouteRedirect } from './route-redirect.ts'
import { NO_CAPTURE, type RouteRewrite } from './route-rewrite.ts'
import type { RouteTimeouts } from './route-timeouts.ts'
import type { RouteMirror } from './route-mirror.ts'
import { unionOfRules } from './route-headers.ts'

/**
 * What an HTTPRoute rule's filters and timeouts give each of its routes: the features the Ingress
 * annotations give theirs, so they are rendered into the same maps and a changed value is the same
 * runtime map edit (a header's value, a redirect's or rewrite's target, a timeout).
 */
export interface RuleFeatures {
  /** RequestHeaderModifier and ResponseHeaderModifier, as header rules (header-rules.ts). */
  headers?: HeaderValue[]
  /** RequestRedirect: the route answers it (REDIRECT_BACKEND); its new path, if any, is `rewrite`. */
  redirect?: RouteRedirect
  /** URLRewrite's path, or RequestRedirect's: ReplaceFullPath or ReplacePrefixMatch. */
  rewrite?: RouteRewrite
  /** URLRewrite's hostname: the Host header the Service is sent. */
  upstreamHost?: string
  /** The rule's `timeouts` (gateway-timeouts.ts). */
  timeouts?: RouteTimeouts
  /** RequestMirror: the Services that resolve, each sent a copy of its share of the requests (gateway-mirror.ts). */
  mirrors?: RouteMirror[]
}

/** The filter types the specification allows once per rule (RequestMirror may repeat). */
const ONCE_PER_RULE = new Set(['RequestHeaderModifier', 'ResponseHeaderModifier', 'RequestRedirect', 'URLRewrite'])

export const NOT_HONOURED = 'is not honoured by hapedge'

/**
 * The filters of `where` (a rule or a backendRef) that parse, each with its field path; a
 * malformed one, or a second of a type `once` says the specification allows once `within`, is
 * reported and left out.
 */
export function readFilters(
  filters: readonly unknown[] | undefined,
  where: string,
  once: (type: string) => boolean,
  within: string,
  reasons: string[],
): [string, HttpRouteFilter][] {
  const read: [string, HttpRouteFilter][] = []
  const types = new Set<string>()
  filters?.forEach((written, f) => {
    const at = `${where}.filters[${f}]`
    const parsed = httpRouteFilter.safeParse(written)
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!
      reasons.push(`${[at, ...issue.path].join('.')}: ${issue.message}`)
    } else if (types.has(parsed.data.type) && once(parsed.data.type))
      reasons.push(`${at}: a second ${parsed.data.type} filter ${within}; the specification allows one`)
    else {
      types.add(parsed.data.type)
      read.push([at, parsed.data])
    }
  })
  return read
}

/**
 * A rule's filters and timeouts read as route features, and what cannot be honoured as written,
 * each with its field path (any one and the route is not served). `at`: `spec.rules[0]`.
 */
export function readRuleFeatures(
  rule: Pick<HttpRouteRule, 'filters' | 'timeouts'> & { matches?: readonly object[] },
  at: string,
  mirrors: MirrorResolution,
  reasons: string[],
): RuleFeatures {
  const features: RuleFeatures = {}
  const headers = new Map<string, string>()
  const filters = readFilters(rule.filters, at, (type) => ONCE_PER_RULE.has(type), 'in one rule', reasons)
  const types = new Set(filters.map(([, filter]) => filter.type))
  const prefixOnly = matchesPrefixOnly(rule.matches)
  for (const [where, filter] of filters) readRuleFilter(filter, where, { prefixOnly, mirrors }, features, headers, reasons)
  if (types.has('RequestRedirect') && types.has('URLRewrite'))
    reasons.push(`${at}.filters: RequestRedirect and URLRewrite in one rule; the specification allows one or the other`)
  if (features.redirect && types.has('RequestMirror'))
    reasons.push(`${at}.filters: RequestMirror beside a RequestRedirect ${NOT_HONOURED}: the rule answers the redirect itself, forwarding nothing`)
  if (features.redirect && headers.size > 0)
    reasons.push(
      `${at}.filters: header modifiers beside a RequestRedirect ${NOT_HONOURED}: it answers the redirect itself, forwarding nothing, and its own answers get no response headers`,
    )
  if (headers.size > MAX_HEADER_RULES) reasons.push(`${at}.filters: ${headers.size} header changes; hapedge makes ${MAX_HEADER_RULES} at most per route`)
  else if (headers.size > 0) features.headers = [...headers].map(([rule, value]) => ({ rule, value })).sort((a, b) => compareRules(a.rule, b.rule))
  const timeouts = readRuleTimeouts(rule.timeouts, `${at}.timeouts`, reasons)
  if (timeouts) features.timeouts = timeouts
  return features
}

/**
 * Whether a ReplacePrefixMatch may rewrite a rule's requests: it replaces what a PathPrefix matched, so every match of
 * the rule must be one (none is PathPrefix /). A GRPCRoute's matches have no path: they are the gRPC path's, never
 * rewritten (its filters have no URLRewrite).
 */
export function matchesPrefixOnly(matches: readonly object[] | undefined): boolean {
  return (matches ?? []).every((match) => ((match as HttpRouteMatch).path?.type ?? 'PathPrefix') === 'PathPrefix')
}

/** One filter of a rule, read into its features (header changes into `headers`), or reported. */
function readRuleFilter(
  filter: HttpRouteFilter,
  where: string,
  { prefixOnly, mirrors }: { prefixOnly: boolean; mirrors: MirrorResolution },
  features: RuleFeatures,
  headers: Map<string, string>,
  reasons: string[],
): void {
  switch (filter.type) {
    case 'RequestHeaderModifier':
      return readHeaderModifier(filter.requestHeaderModifier, 'req', `${where}.requestHeaderModifier`, headers, reasons)
    case 'ResponseHeaderModifier':
      return readHeaderModifier(filter.responseHeaderModifier, 'res', `${where}.responseHeaderModifier`, headers, reasons)
    case 'RequestRedirect': {
      const redirect = filter.requestRedirect
      if (!redirect) return void reasons.push(`${where}.requestRedirect: is required for a filter of type RequestRedirect`)
      features.redirect = readRedirect(redirect, `${where}.requestRedirect`, reasons)
      const rewrite = redirect.path && readPathModifier(redirect.path, `${where}.requestRedirect.path`, prefixOnly, reasons)
      if (rewrite) features.rewrite = { path: rewrite }
      return
    }
    case 'URLRewrite':
      return readUrlRewrite(filter, where, prefixOnly, features, reasons)
    case 'RequestMirror': {
      const mirror = readRequestMirror(filter.requestMirror, `${where}.requestMirror`, mirrors, reasons)
      if (mirror) (features.mirrors ??= []).push(mirror)
      return
    }
    case 'ExtensionRef':
      return void reasons.push(`${where}: ExtensionRef ${NOT_HONOURED} (it has no extension filters)`)
    default:
      return void reasons.push(`${where}.type: ${quote(filter.type)} is not a filter hapedge knows (UnsupportedValue)`)
  }
}

/** A URLRewrite filter (a rule's or a backendRef's) read into `features`: its hostname the upstream Host, its path the rewrite. */
export function readUrlRewrite(
  filter: HttpRouteFilter,
  where: string,
  prefixOnly: boolean,
  features: Pick<RuleFeatures, 'rewrite' | 'upstreamHost'>,
  reasons: string[],
): void {
  const rewrite = filter.urlRewrite
  if (!rewrite) return void reasons.push(`${where}.urlRewrite: is required for a filter of type URLRewrite`)
  if (rewrite.hostname !== undefined) {
    if (isPreciseHostname(rewrite.hostname)) features.upstreamHost = rewrite.hostname
    else reasons.push(`${where}.urlRewrite.hostname: ${quote(rewrite.hostname)} must be a DNS name without wildcard`)
  }
  const path = rewrite.path && readPathModifier(rewrite.path, `${where}.urlRewrite.path`, prefixOnly, reasons)
  if (path) features.rewrite = { path }
}

/** The lists of a header modifier, in the order the frontend runs them (header-rules.ts HEADER_OPS). */
const HEADER_LISTS = [
  ['remove', 'del'],
  ['set', 'set'],
  ['add', 'add'],
] as const

/**
 * A header modifier's changes as header rules (`req-set|x-team` → its value), through the same
 * checks as an Ingress's: names hapedge may write into its rules and may change, values without
 * control characters. The first of two equivalent names counts, as the specification says.
 */
export function readHeaderModifier(
  modifier: HeaderModifier | undefined,
  side: 'req' | 'res',
  where: string,
  into: Map<string, string>,
  reasons: string[],
): void {
  if (!modifier) {
    reasons.push(`${where}: is required for a filter of type ${side === 'req' ? 'RequestHeaderModifier' : 'ResponseHeaderModifier'}`)
    return
  }
  for (const [list, action] of HEADER_LISTS) {
    const seen = new Set<string>()
    modifier[list]?.forEach((entry, i) => {
      const { name: given, value } = typeof entry === 'string' ? { name: entry, value: '' } : entry
      const name = given.toLowerCase()
      if (seen.has(name)) return
      seen.add(name)
      const op = `${side}-${action}` as const
      const refused = refusedHeader(op, name)
      if (refused !== undefined) return reasons.push(`${where}.${list}[${i}].name: ${refused}`)
      if (action !== 'del' && value === '') return reasons.push(`${where}.${list}[${i}].value: must not be empty`)
      if (CONTROL_CHARACTER.test(value)) return reasons.push(`${where}.${list}[${i}].value: must not contain control characters (a line end, say)`)
      into.set([op, name].join(RULE_SEPARATOR), value)
    })
  }
}

type RedirectFilter = NonNullable<ReturnType<typeof httpRouteFilter.parse>['requestRedirect']>

/**
 * A RequestRedirect's status and Location parts. Without a port, the Location has the scheme's own
 * (none written) when the filter names a scheme, else the request's: the port the client named
 * in its Host header, the specification's listener port as the client reached it.
 */
function readRedirect(redirect: RedirectFilter, where: string, reasons: string[]): RouteRedirect {
  const parts: RedirectParts = {}
  const { scheme, hostname, port, statusCode = 302 } = redirect
  if (scheme !== undefined) {
    if (scheme === 'http' || scheme === 'https') parts.scheme = scheme
    else reasons.push(`${where}.scheme: ${quote(scheme)} is not http or https (UnsupportedValue)`)
  }
  if (hostname !== undefined) {
    if (isPreciseHostname(hostname)) parts.hostname = hostname
    else reasons.push(`${where}.hostname: ${quote(hostname)} must be a DNS name without wildcard`)
  }
  if (port !== undefined) parts.port = port
  else if (scheme === undefined) parts.port = 'request'
  if (!(REDIRECT_CODES as readonly number[]).includes(statusCode))
    reasons.push(`${where}.statusCode: ${statusCode} is not a redirect status hapedge answers (${REDIRECT_CODES.join(', ')}) (UnsupportedValue)`)
  return { code: statusCode, parts }
}

/**
 * A path modifier as the route's rewrite (render-rewrites.ts): ReplaceFullPath is the new path
 * whole; ReplacePrefixMatch is the value without its trailing `/` followed by what the request's
 * path has after the matched prefix (`/bar`, `/`, or nothing), `/` when that comes out empty, which
 * is the specification's table (`/foo/bar` by `/foo` to `/xyz/` is `/xyz/bar`, `/foo` to `` is `/`).
 */
function readPathModifier(path: PathModifier, where: string, prefixOnly: boolean, reasons: string[]): RouteRewrite['path'] | undefined {
  const invalid = (value: string) => {
    const issue = httpPath.safeParse(value).error?.issues[0]
    if (issue) reasons.push(`${where}: ${issue.message}`)
    return issue !== undefined
  }
  if (path.type === 'ReplaceFullPath') {
    const value = path.replaceFullPath
    if (value === undefined) return void reasons.push(`${where}.replaceFullPath: is required for type ReplaceFullPath`)
    return invalid(value) ? undefined : { before: value, capture: NO_CAPTURE, after: '' }
  }
  if (path.type === 'ReplacePrefixMatch') {
    const value = path.replacePrefixMatch
    if (value === undefined) return void reasons.push(`${where}.replacePrefixMatch: is required for type ReplacePrefixMatch`)
    if (!prefixOnly) return void reasons.push(`${where}.type: ReplacePrefixMatch needs every match of the rule to be a PathPrefix, as the specification says`)
    if (value !== '' && invalid(value)) return undefined
    return { before: value.replace(/\/+$/, ''), capture: 'rest', after: '' }
  }
  reasons.push(`${where}.type: ${quote(path.type)} is not ReplaceFullPath or ReplacePrefixMatch (UnsupportedValue)`)
  return undefined
}

/** A Gateway API PreciseHostname: a DNS name, no wildcard. */
const isPreciseHostname = (name: string) => isHostnameField(name) && !name.startsWith('*')

/** A route of an HTTPRoute with its rule's features: a redirect answers (REDIRECT_BACKEND, no Service drawn); the others go with the request. */
export function withRuleFeatures(route: Route, features: RuleFeatures): Route {
  const { redirect, rewrite, headers, upstreamHost, timeouts, mirrors } = features
  if (redirect) {
    const { split: _, ...answered } = route
    return { ...answered, backendName: REDIRECT_BACKEND, redirect, ...(rewrite ? { rewrite } : {}) }
  }
  return {
    ...route,
    ...(headers ? { headers } : {}),
    ...(rewrite ? { rewrite } : {}),
    ...(upstreamHost ? { upstreamHost } : {}),
    ...(timeouts ? { timeouts } : {}),
    ...(mirrors ? { mirrors } : {}),
  }
}

/** The header rules of an HTTPRoute's served routes (its rules' and its backendRefs' header sets), once each: what it adds to the frontend (header-groups.ts). */
export function headerRulesOfRules(headerSets: Iterable<readonly HeaderValue[] | undefined>): string[] {
  return unionOfRules([...headerSets].map((headers) => (headers ?? []).map(({ rule }) => rule)))
}
