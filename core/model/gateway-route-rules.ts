import type { HttpRoute, HttpRouteMatch, HttpRouteRule } from '../kube/gateway-http-route.ts'
import { httpPath } from '../syntax/fields.ts'
import type { BackendRef } from './backend-ref.ts'
import { unresolvedBackendRef, type BackendLookup } from './gateway-backend-refs.ts'
import { readRegexPath } from './regex-path.ts'
import { readConditions, type MatchConditions } from './gateway-conditions.ts'
import { REGEX_PATH_MARK, routeMatch, type RouteMatch } from './routes.ts'
import { matchesPrefixOnly, readRuleFeatures, type RuleFeatures } from './gateway-filters.ts'
import { type BackendFeatures, readBackendFilters, settleBackendFeatures } from './gateway-backend-filters.ts'
import type { Upstream } from './upstream.ts'

/** Its features (BackendFeatures): what its filters give the requests sent to it, when its rule's other Services get another (gateway-backend-filters.ts). */
export interface WeightedBackend extends BackendFeatures {
  ref: BackendRef
  weight: number
  /** It does not resolve (gateway-backend-refs.ts): its share of the requests is answered 500 (UNRESOLVED_BACKEND). */
  unresolved?: true
}

/** One match of an HTTPRoute's rule, as the engine serves it: a path and the Services its requests go to. */
export interface GatewayPath extends RouteMatch {
  /** `spec.rules[0].matches[1]`, where conflicts are reported. */
  at: string
  backends: WeightedBackend[]
  /** What the rule's filters and timeouts give the route (gateway-filters.ts). */
  features: RuleFeatures
  /** Its method, header and query parameter matches, if any: the path then serves only the requests that meet them. */
  conditions?: MatchConditions
  /** How its Services are spoken to, when not HTTP/1.1 in clear: a GRPCRoute's in HTTP/2 (gateway-grpc-rules.ts). */
  upstream?: Upstream
  /** Every weighted backendRef of its rule fails to resolve: the path is served, and answers 500 (UNRESOLVED_BACKEND). */
  unresolved?: true
  /** Its rule names backendRefs, all of weight 0: the path is served, and answers 500 (WEIGHTLESS_BACKEND). */
  weightless?: true
  /** A GRPCRoute match that names no service (gateway-grpc-rules.ts): the host's matches of a service alone come first (gateway-host.ts). */
  anyService?: true
}

export interface RouteRules {
  paths: GatewayPath[]
  /** What hapedge does not honour or cannot resolve, each with its field path: any one and the route is not served. */
  reasons: string[]
  /**
   * Reported while the route is served: the backendRefs that do not resolve, and the rules whose backendRefs all have
   * weight 0; the requests for them are answered 500.
   */
  unresolved: string[]
}

const NOT_HONOURED = 'is not honoured by hapedge'

/**
 * An HTTPRoute's rules read as paths and weighted Services, or the reasons it cannot be served as
 * written: hapedge matches the host, the path (Exact, PathPrefix, RegularExpression), the method, headers and
 * query parameters (gateway-conditions.ts) and splits a path between its weighted Services (route-split.ts); its
 * filters and timeouts are route features (gateway-filters.ts) where hapedge can honour them, and a backendRef's header
 * filters are the requests sent to it (gateway-backend-filters.ts). Retries, session persistence and a backendRef's
 * other filters it does not honour, and a route served without them would mean something else, so it is not served.
 */
export function readRouteRules(route: HttpRoute, cluster: BackendLookup): RouteRules {
  return readRules(route, cluster, readHttpMatch)
}

/** A match read as the engine serves it (its path, and its conditions if any), or what of it hapedge does not serve, with field paths. */
export type MatchReading = { path: RouteMatch & Pick<GatewayPath, 'anyService'>; conditions?: MatchConditions } | { refused: string[] }

/** What readRules reads of a route kind: its identity and its rules' backendRefs, filters and matches. */
interface RulesOf<Match extends object> {
  kind: string
  metadata: { namespace: string }
  spec: { rules?: readonly (Pick<HttpRouteRule, 'backendRefs' | 'filters' | 'timeouts' | 'sessionPersistence'> & { retry?: unknown; matches?: Match[] })[] }
}

/**
 * The rules of a route kind (HTTPRoute, GRPCRoute) read as paths and weighted Services: the same
 * backendRefs, filters and timeouts; `readMatch` reads the kind's matches (`undefined`: a rule
 * without matches).
 */
export function readRules<Match extends object>(
  route: RulesOf<Match>,
  cluster: BackendLookup,
  readMatch: (match: Match | undefined, where: string) => MatchReading,
): RouteRules {
  const paths: GatewayPath[] = []
  const reasons: string[] = []
  const unresolved: string[] = []
  const { namespace } = route.metadata
  route.spec.rules?.forEach((rule, r) => {
    const at = `spec.rules[${r}]`
    const features = readRuleFeatures(rule, at, { route: { kind: route.kind, namespace }, cluster, unresolved }, reasons)
    for (const field of ['retry', 'sessionPersistence'] as const) if (rule[field] !== undefined) reasons.push(`${at}.${field} ${NOT_HONOURED}`)
    const filtering = { kind: route.kind, prefixOnly: matchesPrefixOnly(rule.matches) }
    // Its weighted backendRefs, resolved or not: the requests a rule would send to one that does not resolve are answered 500.
    let backends: WeightedBackend[] = []
    const unresolvedHere: { reason: string; weight: number }[] = []
    rule.backendRefs?.forEach((backend, b) => {
      const where = `${at}.backendRefs[${b}]`
      const refusal = unresolvedBackendRef(backend, { kind: route.kind, namespace }, cluster)
      const weight = backend.weight ?? 1
      const ref = { namespace: backend.namespace ?? namespace, service: backend.name, port: backend.port ?? 0 }
      const share = () => {
        // One of weight 0 takes no requests: reported, and nothing is answered for it.
        if (weight === 0) return unresolved.push(`${where}: ${refusal!.message}`)
        unresolvedHere.push({ reason: `${where}: ${refusal!.message}`, weight })
        backends.push({ ref, weight, unresolved: true })
      }
      if (refusal?.reason === 'InvalidKind') return share()
      // A backendRef of weight 0 takes no request, so its filters never apply.
      const own =
        backend.filters && backend.filters.length > 0 && weight > 0 ? readBackendFilters(backend.filters, where, filtering, features, reasons) : undefined
      if (backend.port === undefined) return reasons.push(`${where}.port: is required for a Service`)
      if (refusal) return share()
      if (weight > 0) backends.push({ ref, weight, ...own })
    })
    backends = settleBackendFeatures(backends, features, at, reasons)
    const total = backends.reduce((sum, { weight }) => sum + weight, 0)
    const resolves = backends.some((backend) => !backend.unresolved)
    const answers500 = backends.length > 0 && !resolves && !features.redirect
    unresolved.push(
      ...unresolvedHere.map(({ reason, weight }) => {
        if (features.redirect) return `${reason}; this rule redirects, and sends nothing to it`
        return resolves ? `${reason}; its share of this rule's requests (weight ${weight} of ${total}) answers 500` : `${reason}; this rule answers 500`
      }),
    )
    // Its backendRefs all have weight 0: none takes a request, so each is answered 500, as the upstream conformance case HTTPRouteAllBackendsWeightZero asks.
    const weightless = backends.length === 0 && (rule.backendRefs?.length ?? 0) > 0 && !features.redirect
    if (weightless) unresolved.push(`${at}.backendRefs: every backendRef has weight 0; this rule answers 500`)
    // A rule that redirects answers every request itself: it needs no Service.
    else if (backends.length === 0 && !features.redirect)
      reasons.push(`${at}.backendRefs: none; hapedge does not serve a rule that names no Service and does not redirect`)
    const matches = rule.matches && rule.matches.length > 0 ? rule.matches : [undefined]
    matches.forEach((match, m) => {
      const where = `${at}.matches[${m}]`
      const read = readMatch(match, where)
      if ('refused' in read) return reasons.push(...read.refused)
      const { path, conditions } = read
      paths.push({
        at: where,
        ...path,
        backends,
        features,
        ...(conditions ? { conditions } : {}),
        ...(answers500 ? { unresolved: true as const } : {}),
        ...(weightless ? { weightless: true as const } : {}),
      })
    })
  })
  return { paths, reasons, unresolved }
}

/** An HTTPRoute match: its path (PathPrefix / when absent), method, headers and query parameters. */
function readHttpMatch(match: HttpRouteMatch = {}, where: string): MatchReading {
  const read = readConditions(match, where)
  if ('refused' in read) return read
  const path = readPathMatch(match.path?.type ?? 'PathPrefix', match.path?.value ?? '/')
  if ('refused' in path) return { refused: [`${where}.path.${path.refused}`] }
  if (read.conditions && path.match === 'Regex')
    return { refused: [`${where}: a RegularExpression path with a method, header or query parameter match ${NOT_HONOURED}`] }
  return { path, ...read }
}

/**
 * A path match as the engine serves it. A RegularExpression must match the whole path (as
 * Envoy's and most implementations' do; the specification leaves it to them), case-sensitively:
 * read by the safe-regex reader and served as an Ingress's regex path is (regex-path.ts), so its
 * route is a line of the regular-expression route map, a runtime edit.
 */
function readPathMatch(type: string, value: string): RouteMatch | { refused: string } {
  if (type === 'RegularExpression') {
    const read = readRegexMatch(value)
    return 'refused' in read ? { refused: `value: ${read.refused}` } : read
  }
  if (type !== 'Exact' && type !== 'PathPrefix') return { refused: `type: ${type} ${NOT_HONOURED} (Exact, PathPrefix and RegularExpression are)` }
  const invalid = httpPath.safeParse(value).error?.issues[0]
  if (invalid) return { refused: `value: ${invalid.message}` }
  return routeMatch({ pathType: type === 'Exact' ? 'Exact' : 'Prefix', path: value })
}

/** A regular expression that must match the whole path, case-sensitively, as the regular-expression route map serves it. */
export function readRegexMatch(expression: string): RouteMatch | { refused: string } {
  const read = readRegexPath(expression, false)
  return 'refused' in read ? read : { match: 'Regex', path: `${REGEX_PATH_MARK}(?:${read.expression})$` }
}
