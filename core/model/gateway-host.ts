import type { Gateway } from '../kube/gateway.ts'
import type { Ingress } from '../kube/ingress.ts'
import { backendVariantName, UNRESOLVED_BACKEND, WEIGHTLESS_BACKEND } from './backend-ref.ts'
import type { ClusterState } from './cluster-state.ts'
import type { Route } from './derive-host.ts'
import { withRuleFeatures } from './gateway-filters.ts'
import { listenerCertificate } from './gateway-listeners.ts'
import { describeRoute, type GatewayRoute, routeVerdict } from './gateway-verdict.ts'
import { compareRoutePrecedence, describeIngress } from './ingress-order.ts'
import type { Rejection } from './rejection.ts'
import { compareRouteMatch } from './routes.ts'
import { resolveTlsSecret } from './tls-secret.ts'
import { routeSplit } from './route-split.ts'
import type { GatewayPath } from './gateway-route-rules.ts'
import { ownPortOf, splitHostOnPort } from './gateway-ports.ts'
import { methodsAfterServices, serviceMatchedAlone, withServicesFirst } from './grpc-services-first.ts'

/** What the HTTPRoutes and GRPCRoutes attached to one host give it. */
export interface GatewayHost {
  /** Their routes, in precedence order among themselves (not yet against the host's Ingresses). */
  routes: Route[]
  /** Their matches with a method, header or query parameter condition, in route precedence: they go in chains (condition-chains.ts). */
  candidates: Route[]
  /** The routes that own them, by owner name. */
  owners: ReadonlyMap<string, GatewayRoute>
  /** The certificate of the oldest HTTPS listener that serves the host, and its Gateway. */
  tls?: { secret: string; gateway: Gateway }
  /** Only HTTPS listeners serve the host: its plain HTTP requests are redirected to HTTPS. */
  httpsOnly: boolean
  /**
   * The host is the hostname of a listener that serves it: that listener is the most specific for its names, and every route
   * attached to it is on this host or a narrower one, so a request its routes do not take is no wider host's (listener isolation).
   */
  listenerHostname: boolean
}

/** The owners of a host no route is attached to (one map for them all). */
const NO_OWNERS: ReadonlyMap<string, GatewayRoute> = new Map()

/**
 * Whether a wildcard host (`*.example.com`) serves the names of more than one label under it too,
 * as the Gateway API's wildcard does: when HTTPRoutes serve it and no Ingress of this cluster's
 * class names it (an Ingress's wildcard matches one label, and the host's routes are one set).
 * Where an Ingress names it as well, the HTTPRoutes are served on the names of one label only,
 * and each is told so.
 */
export function deepWildcardOf(host: string, gateway: GatewayHost, ingresses: readonly Ingress[], rejections: Rejection[]): boolean {
  if (!host.startsWith('*.') || gateway.owners.size === 0) return false
  if (ingresses.length === 0) return true
  const ingress = describeIngress(ingresses[0]!)
  for (const owner of gateway.owners.keys())
    rejections.push({
      object: owner,
      reason: `host "${host}" is also named by ${ingress}, whose wildcard matches one label: names of more than one label under it are not served by this HTTPRoute`,
    })
  return false
}

/**
 * The routes, certificate and scheme the HTTPRoutes of this cluster's Gateways give one host: a
 * name on the HTTP and HTTPS binds, or on a port of its own (`foo.com:8080`, gateway-ports.ts),
 * from the listeners served there. The same match claimed twice goes to the route first in
 * precedence (rules in their order within a route); the others are reported.
 */
export function deriveGatewayHost(host: string, state: ClusterState, rejections: Rejection[]): GatewayHost {
  const { name, port } = splitHostOnPort(host)
  const attached = state.httpRoutesForHost(name)
  // Most hosts are the Ingresses' alone: what they get from routes is nothing, made without the work below.
  if (attached.length === 0) return { routes: [], candidates: [], owners: NO_OWNERS, httpsOnly: false, listenerHostname: false }
  const routes = new Map<string, Route>()
  const owners = new Map<string, GatewayRoute>()
  const candidates: Route[] = []
  // The keys of the GRPCRoute matches of no service, and the services matched alone, without and with header matches (grpc-services-first.ts).
  const anyService = new Set<string>()
  const services: string[] = []
  const servicesWithHeaders: string[] = []
  let tls: GatewayHost['tls']
  let http = false
  let https = false
  let listenerHostname = false
  for (const route of attached.sort(compareRoutePrecedence)) {
    const verdict = routeVerdict(route, state)
    if (!verdict.served) continue
    const here = verdict.attached.attachments.filter((attachment) => attachment.hosts.includes(name) && ownPortOf(attachment.listener, state.options) === port)
    if (here.length === 0) continue
    const owner = describeRoute(route)
    owners.set(owner, route)
    for (const { gateway, listener } of here) {
      if (listener.hostname === name) listenerHostname = true
      if (listener.protocol === 'HTTP') http = true
      // Its routes are never served in clear, whether or not its certificate resolves (the listener reports it).
      else if (listener.protocol === 'HTTPS') https = true
      const certificate = name === '' ? undefined : listenerCertificate(listener, gateway, state)
      if (!certificate) continue
      const resolved = resolveTlsSecret(state, certificate.namespace, certificate.name)
      if (!tls && resolved.ok) tls = { secret: resolved.key, gateway }
    }
    for (const path of verdict.rules.paths) {
      // A match with conditions is one of its path's chain (condition-chains.ts), not the path's own route.
      const service = serviceMatchedAlone(route.kind, path)
      if (path.conditions) {
        candidates.push({ ...servedRoute(path, owner, route.metadata.namespace), conditions: path.conditions })
        if (service !== undefined) servicesWithHeaders.push(service)
        continue
      }
      const key = `${path.match} ${path.path}`
      const winner = routes.get(key)
      if (winner) {
        const by = winner.owner === owner ? `an earlier match of the same ${route.kind}` : winner.owner
        rejections.push({ object: owner, reason: `${path.at}: host "${host || '*'}" ${path.match} ${path.path} is already served by ${by}` })
        continue
      }
      routes.set(key, servedRoute(path, owner, route.metadata.namespace))
      if (path.anyService) anyService.add(key)
      if (service !== undefined) services.push(service)
    }
  }
  withServicesFirst(routes, anyService, [...services, ...servicesWithHeaders])
  candidates.push(...methodsAfterServices(routes, anyService, servicesWithHeaders))
  return { routes: [...routes.values()].sort(compareRouteMatch), candidates, owners, ...(tls ? { tls } : {}), httpsOnly: https && !http, listenerHostname }
}

/**
 * The route an HTTPRoute or GRPCRoute match is served as: its first weighted Service that resolves (spoken to as its kind asks), a split when it has
 * several or some do not resolve (render-split.ts: their share goes to UNRESOLVED_BACKEND), and what its
 * rule's filters and timeouts give it (withRuleFeatures).
 */
function servedRoute(path: GatewayPath, owner: string, namespace: string): Route {
  // The first that resolves: a split's others, and the share of those that do not (answered 500), are the draw's.
  const main = path.backends.find((backend) => !backend.unresolved)
  // A rule that redirects may name no Service: its route answers the redirect and reaches none (withRuleFeatures).
  const backend = main?.ref ?? { namespace, service: '', port: 0 }
  // Its backendRefs all fail to resolve, or all have weight 0: the specification answers 500, and no Service is reached (reachesService).
  // Each is a route map value, so a weight's or a Service's change to or from it is a map edit.
  if (path.unresolved || path.weightless) {
    const backendName = path.unresolved ? UNRESOLVED_BACKEND : WEIGHTLESS_BACKEND
    return { match: path.match, path: path.path, backend, backendName, owner, refused: true }
  }
  const { upstream } = path
  const served: Route = {
    match: path.match,
    path: path.path,
    backend,
    backendName: backendVariantName(backend, upstream),
    owner,
    ...(upstream ? { upstream } : {}),
  }
  const split = main && routeSplit(path.backends, upstream)
  if (split) served.split = split
  return withRuleFeatures(served, path.features)
}

/**
 * The host's Ingress routes and HTTPRoute routes as one list: a match both claim goes to the
 * owner first in precedence (the oldest, then namespace/name), and the other is reported.
 */
export function mergeGatewayRoutes(
  host: string,
  ingressRoutes: Route[],
  ingresses: readonly Ingress[],
  gateway: GatewayHost,
  rejections: Rejection[],
): Route[] {
  if (gateway.routes.length === 0) return ingressRoutes
  const byOwner = new Map(ingresses.map((ingress) => [describeIngress(ingress), ingress]))
  const merged = new Map(ingressRoutes.map((route) => [`${route.match} ${route.path}`, route]))
  for (const route of gateway.routes) {
    const key = `${route.match} ${route.path}`
    const other = merged.get(key)
    const ingress = other && byOwner.get(other.owner)
    const httpRoute = gateway.owners.get(route.owner)!
    const [winner, loser] = !other || !ingress || compareRoutePrecedence(httpRoute, ingress) < 0 ? [route, other] : [other, route]
    if (loser)
      rejections.push({
        object: loser.owner,
        reason: `host "${host || '*'}" ${route.match} ${route.path} is already served by ${winner.owner}, which comes first`,
      })
    merged.set(key, winner)
  }
  return [...merged.values()].sort(compareRouteMatch)
}
