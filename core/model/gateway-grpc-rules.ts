import type { GrpcRoute, GrpcRouteMatch } from '../kube/gateway-grpc-route.ts'
import { quote } from '../syntax/fields.ts'
import type { BackendLookup } from './gateway-backend-refs.ts'
import { readConditions } from './gateway-conditions.ts'
import { type GatewayPath, type MatchReading, readRegexMatch, readRules, type RouteRules } from './gateway-route-rules.ts'
import { routeMatch, type RouteMatch } from './routes.ts'
import type { Upstream } from './upstream.ts'

/** How a GRPCRoute's Services are spoken to: HTTP/2 in clear (h2c), the backend of backend-protocol GRPC. */
export const GRPC_UPSTREAM: Upstream = { protocol: 'GRPC' }

/** The names the specification admits in an Exact match (its CRD's patterns): they hold no character a path or a regular expression would read otherwise, but `.`. */
const SERVICE = /^\.?[A-Za-z_][A-Za-z_0-9]*(\.[A-Za-z_][A-Za-z_0-9]*)*$/
const METHOD = /^[A-Za-z_][A-Za-z_0-9]*$/
/** A service or method the match leaves open: one segment of the gRPC path. */
const ANY_NAME = '[^/]+'
/** The filter types of a GRPCRoute rule (RequestMirror and ExtensionRef are reported as not honoured: ExtensionRef where HTTPRoute's is). */
const GRPC_FILTERS = new Set(['RequestHeaderModifier', 'ResponseHeaderModifier', 'RequestMirror', 'ExtensionRef'])

/**
 * A GRPCRoute's rules as the engine serves HTTPRoute rules: a gRPC request is a POST to
 * `/<service>/<method>`, so a match is a path (service and method: Exact; service only: the
 * prefix `/<service>`; a method only, or RegularExpression: a regular expression of the whole
 * path, which leaves to the host's matches of a service alone their services' calls when it
 * names no service), its headers the same conditions, its backendRefs and header filters the same; its
 * Services are spoken to in HTTP/2 (GRPC_UPSTREAM).
 */
export function readGrpcRules(route: GrpcRoute, cluster: BackendLookup): RouteRules {
  const foreign: string[] = []
  route.spec.rules?.forEach((rule, r) =>
    rule.filters?.forEach((filter, f) => {
      const type = (filter as { type?: unknown } | null)?.type
      if (typeof type === 'string' && !GRPC_FILTERS.has(type)) foreign.push(`spec.rules[${r}].filters[${f}].type: ${quote(type)} is not a GRPCRoute filter`)
      // The shipped Lua sends its copies with HAProxy's HTTP client, in HTTP/1.1, which a gRPC Service does not speak.
      if (type === 'RequestMirror')
        foreign.push(`spec.rules[${r}].filters[${f}]: RequestMirror is not honoured by hapedge on a GRPCRoute (its copies would be sent in HTTP/1.1)`)
    }),
  )
  const read = readRules(route, cluster, readGrpcMatch)
  return { ...read, paths: read.paths.map((path) => ({ ...path, upstream: GRPC_UPSTREAM })), reasons: [...foreign, ...read.reasons] }
}

/** A GRPCRoute match: its method as a path (every path when absent) and its headers as conditions. */
function readGrpcMatch(match: GrpcRouteMatch = {}, where: string): MatchReading {
  const read = readConditions({ headers: match.headers }, where)
  if ('refused' in read) return read
  const path = grpcPath(match.method, `${where}.method`)
  if ('refused' in path) return { refused: [path.refused] }
  // Conditions are served per Exact or prefix path (condition-chains.ts), not beside a regular expression.
  if (read.conditions && path.match === 'Regex')
    return { refused: [`${where}: a method match without a service, or of type RegularExpression, beside header matches is not honoured by hapedge`] }
  return { path, ...read }
}

type GrpcPath = RouteMatch & Pick<GatewayPath, 'anyService'>

function grpcPath(method: GrpcRouteMatch['method'], at: string): GrpcPath | { refused: string } {
  if (!method) return routeMatch({ pathType: 'Prefix', path: '/' })
  // Empty is omitted, as the specification says ("if left empty or omitted, will match any").
  const service = method.service || undefined
  const name = method.method || undefined
  if (service === undefined && name === undefined) return { refused: `${at}: names neither a service nor a method` }
  // A match without a service is marked: the specification ranks a matching service's characters before a method's.
  const regex = (expression: string): GrpcPath | { refused: string } => {
    const read = readRegexMatch(expression)
    if ('refused' in read) return { refused: `${at}: ${read.refused}` }
    return service === undefined ? { ...read, anyService: true } : read
  }
  const type = method.type ?? 'Exact'
  if (type === 'RegularExpression') return regex(`/(?:${service ?? ANY_NAME})/(?:${name ?? ANY_NAME})`)
  if (type !== 'Exact') return { refused: `${at}.type: ${quote(type)} is not honoured by hapedge (Exact and RegularExpression are)` }
  if (service !== undefined && !SERVICE.test(service)) return { refused: `${at}.service: ${quote(service)} is not a gRPC service name` }
  if (name !== undefined && !METHOD.test(name)) return { refused: `${at}.method: ${quote(name)} is not a gRPC method name` }
  if (service === undefined) return regex(`/${ANY_NAME}/${name}`)
  return name === undefined ? routeMatch({ pathType: 'Prefix', path: `/${service}` }) : { match: 'Exact', path: `/${service}/${name}` }
}
