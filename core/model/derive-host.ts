import type { Ingress } from '../kube/ingress.ts'
import { accessGroupOf } from './access-group.ts'
import { describeRef } from '../kube/objects.ts'
import { REFUSED_BACKEND, ServicePorts, type BackendRef } from './backend-ref.ts'
import type { ClusterState } from './cluster-state.ts'
import { ingressRefusal } from './ingress-refusal.ts'
import { compareIngressPrecedence, describeIngress } from './ingress-order.ts'
import { hostRedirects, type HostRedirects } from './host-redirects.ts'
import type { Rejection } from './rejection.ts'
import { withRedirects, type RouteRedirect } from './route-redirect.ts'
import { readRoutePath, withRewrites, type RouteRewrite } from './route-rewrite.ts'
import { withTimeouts, type RouteTimeouts } from './route-timeouts.ts'
import { withUpstreams } from './route-upstream.ts'
import { withBodySizes, type RouteBodySize } from './route-body-size.ts'
import { withCors, type RouteCors } from './route-cors.ts'
import type { HeaderValue } from './header-rules.ts'
import { withHeaders } from './route-headers.ts'
import { withUpstreamHosts } from './route-upstream-host.ts'
import { withLimits, type RouteLimits } from './route-limits.ts'
import { withExternalAuth, type ExternalAuth } from './external-auth.ts'
import { canaryOf } from './canary.ts'
import { mergeIngresses } from './mergeable.ts'
import { withCanaries, type RouteCanary } from './canary-route.ts'
import type { RouteSplit } from './route-split.ts'
import type { RouteMirror } from './route-mirror.ts'
import { withUrlMirrors, type UrlMirror } from './ingress-mirror.ts'
import { withConditionChains, type RouteChain } from './condition-chains.ts'
import type { MatchConditions } from './gateway-conditions.ts'
import { hostAlias } from './server-alias.ts'
import { compareRouteMatch, type RouteMatch } from './routes.ts'
import type { Upstream } from './upstream.ts'
import type { Settings } from './settings.ts'
import { resolveTlsSecret } from './tls-secret.ts'
import { hostClientCert } from './client-cert-host.ts'
import type { ClientCert } from './client-cert.ts'
import { deepWildcardOf, deriveGatewayHost, mergeGatewayRoutes } from './gateway-host.ts'
import { splitHostOnPort } from './gateway-ports.ts'
import { sortFew } from '../sort-few.ts'

export interface Route extends RouteMatch {
  /** The Service the Ingress names (not served when the route is refused). */
  backend: BackendRef
  /** The HAProxy backend the route goes to: the Service's, REFUSED_BACKEND, or REDIRECT_BACKEND. */
  backendName: string
  /** The owner redirects its routes (temporal-redirect, permanent-redirect): answered by REDIRECT_BACKEND. */
  redirect?: RouteRedirect
  /** The owner's annotations restrict access in a way hapedge does not honour: the route is claimed, and answers 503. */
  refused?: true
  /** The Ingress that owns this route: `Ingress ns/name`. */
  owner: string
  /** The owner's access group (source ranges), checked by the frontend before the route is served. */
  access?: string
  /** The owner's timeout-server and timeout-tunnel: looked up by the frontend, set by the Service's backend (render-timeouts.ts). */
  timeouts?: RouteTimeouts
  /** The owner's backend settings (upstream.ts): the route goes to the Service's backend for them, named in backendName. */
  upstream?: Upstream
  /** The owner's upstream-vhost: the Host header its Service is sent (render-upstream-host.ts). */
  upstreamHost?: string
  /** The owner's proxy-body-size (bytes, null for none): looked up and checked by the frontend (render-body-size.ts). */
  bodySize?: RouteBodySize
  /** The owner's CORS (enable-cors): looked up by the frontend, which answers preflights and adds the headers (render-cors.ts). */
  cors?: RouteCors
  /** The owner's request and response header rules, with their values (route-headers.ts). */
  headers?: HeaderValue[]
  /** The owner's rewrite-target and x-forwarded-prefix for this path: looked up and applied by the frontend (render-rewrites.ts). */
  rewrite?: RouteRewrite
  /** The canary Ingress that takes some of this route's requests to its Service (canary-route.ts, render-canary.ts). */
  canary?: RouteCanary
  /** The chain of conditional matches a request of this path goes through first (condition-chains.ts): the route maps give its id. */
  chain?: RouteChain
  /** Its key in the maps when a chain takes it (condition-chains.ts). */
  conditionKey?: string
  /** An HTTPRoute match's method, header and query parameter conditions: served only through the chains of the paths it matches. */
  conditions?: MatchConditions
  /** The HTTPRoute rule's weighted Services, when it names several: a draw per request picks one (render-split.ts). */
  split?: RouteSplit
  /** The owner's external authentication: looked up by the frontend, asked by the shipped Lua before the request goes on (render-external-auth.ts). */
  externalAuth?: ExternalAuth
  /** The owner's rate and connection limits: looked up and counted by the frontend (render-limits.ts). */
  limits?: RouteLimits
  /** A GRPCRoute match of no service does not take these services' calls: their matches of the service alone come first (gateway-host.ts). */
  exceptServices?: string[]
  /** An HTTPRoute rule's RequestMirror Services: looked up by the frontend, each sent a copy of its share of the requests by the shipped Lua (render-mirror.ts). */
  mirrors?: RouteMirror[]
  /** The owner's mirror-target: each request copied to a URL by the shipped Lua (ingress-mirror.ts, render-mirror.ts). */
  urlMirror?: UrlMirror
}

export interface HostConfig extends HostRedirects {
  /** `''` for the rules that name no host. */
  host: string
  routes: Route[]
  /** The Secret (`namespace/name`) whose certificate is served for this host by SNI. */
  tlsSecret?: string
  /** For a name no rule serves that an Ingress names in server-alias: the host it is served as (server-alias.ts). */
  alias?: string
  /** What the host asks of its clients' certificates (client-cert-host.ts): its crt-list line asks for one, its requests are checked. */
  clientCert?: ClientCert
  /** A wildcard HTTPRoutes alone serve: it matches names of any number of labels, as the Gateway API's does (render-wildcard-hosts.ts). */
  deepWildcard?: true
  /** A name HTTPRoutes and GRPCRoutes alone serve: a request none of its routes takes is looked up at the next host that would serve it (render-fall-through.ts). */
  fallsThrough?: true
}

export interface DerivedHost {
  config?: HostConfig
  rejections: Rejection[]
}

/**
 * What the Ingresses' annotations set on their routes, in this order: a redirect (a route that
 * redirects reaches no Service, so it gets none of the rest), a rewrite, timeouts, backend
 * settings, a body size, CORS, the upstream Host, external authentication, rate and connection limits, a mirror.
 */
const ROUTE_SETTINGS: readonly ((routes: Route[], ingresses: readonly Ingress[], host: string) => Route[])[] = [
  withRedirects,
  (routes, ingresses, host) => withRewrites(host, routes, ingresses),
  withTimeouts,
  withUpstreams,
  withBodySizes,
  withCors,
  withUpstreamHosts,
  withExternalAuth,
  withLimits,
  withUrlMirrors,
]

/** What a full rebuild gives each host it derives: the host's Ingresses, read for every host in one scan, and the Service ports every host shares. */
export interface RebuildShare {
  named: Ingress[]
  servicePorts: ServicePorts
}

/**
 * Everything one host serves, from every Ingress of this cluster's class that names it. Routes and
 * certificates that several Ingresses claim go to the oldest Ingress; the others are reported.
 */
export function deriveHost(
  host: string,
  state: ClusterState,
  settings: Settings,
  { named, servicePorts }: RebuildShare = { named: state.ingressesForHost(host), servicePorts: new ServicePorts() },
): DerivedHost {
  const served = sortFew(
    named.filter((ingress) => state.serves(ingress)),
    compareIngressPrecedence,
  )
  const rejections: Rejection[] = []
  // A canary Ingress serves no path of its own, nor sets anything of the host: it takes a share of another's route.
  const canaries = served.filter((ingress) => canaryOf(ingress))
  const ingresses = mergeIngresses(host, canaries.length === 0 ? served : served.filter((ingress) => !canaryOf(ingress)), rejections)
  const clientCerts = hostClientCert(host, ingresses, state, rejections)
  // The HTTPRoutes of this cluster's Gateways that serve the host: their routes are the Ingresses' kind, in one precedence (gateway-host.ts).
  const gateway = deriveGatewayHost(host, state, rejections)
  const collected = mergeGatewayRoutes(
    host,
    collectRoutes(host, ingresses, state, rejections, clientCerts.refused, servicePorts),
    ingresses,
    gateway,
    rejections,
  )
  const mains = ROUTE_SETTINGS.reduce((given, give) => give(given, ingresses, host), collected)
  // The HTTPRoute matches with conditions last: chains end at the routes every setting has been given.
  const routes = withConditionChains(host, withCanaries(host, mains, canaries, state, rejections), gateway.candidates, rejections)
  const tls = host === '' ? undefined : chooseTls(host, ingresses, state, rejections)
  const gatewayTls = tls ? undefined : gateway.tls
  if (tls && gateway.tls && gateway.tls.secret !== tls.secret)
    rejections.push({
      object: `Gateway ${gateway.tls.gateway.metadata.namespace}/${gateway.tls.gateway.metadata.name}`,
      reason: `host "${host}" already uses Secret ${tls.secret} from ${describeIngress(tls.ingress)}`,
    })
  const alias = host === '' ? undefined : hostAlias(host, ingresses, routes[0]?.owner, rejections)
  if (routes.length === 0 && !tls && !gatewayTls && !alias) return { rejections }
  const redirects = hostRedirects(host, ingresses, tls?.ingress, routes.length > 0, state, settings)
  // A host only HTTPS listeners serve answers plain HTTP with a redirect to HTTPS, not with its routes: also when their
  // certificate does not resolve, or they have no hostname, unless an Ingress serves the host (its TLS decides).
  if (gateway.httpsOnly && (gatewayTls || (!tls && served.length === 0))) redirects.redirectToHttps = true
  const deepWildcard = routes.length > 0 && deepWildcardOf(host, gateway, served, rejections)
  // The Gateway API ranks the rules of every route whose hostnames match a name: a wider host's come after this one's (an
  // Ingress's host keeps its requests, and so does a listener's own hostname: a wider host's routes are other listeners').
  const fallsThrough = routes.length > 0 && gateway.owners.size > 0 && served.length === 0 && !gateway.listenerHostname && splitHostOnPort(host).name !== ''
  return {
    config: {
      host,
      routes: withHeaders(routes, ingresses, state),
      tlsSecret: tls?.secret ?? gatewayTls?.secret,
      ...redirects,
      ...(alias ? { alias } : {}),
      ...(clientCerts.clientCert ? { clientCert: clientCerts.clientCert } : {}),
      ...(deepWildcard ? { deepWildcard } : {}),
      ...(fallsThrough ? { fallsThrough } : {}),
    },
    rejections,
  }
}

function collectRoutes(
  host: string,
  ingresses: Ingress[],
  state: ClusterState,
  rejections: Rejection[],
  refusedOwners: ReadonlySet<string>,
  servicePorts: ServicePorts,
): Route[] {
  const routes = new Map<string, Route>()
  for (const ingress of ingresses) {
    const owner = describeIngress(ingress)
    const refused = ingressRefusal(ingress, state) !== undefined || refusedOwners.has(owner)
    const access = accessGroupOf(ingress, state)?.name
    // Loops, not forEach: a callback is a function made for each Ingress of each host.
    const rules = ingress.spec.rules ?? []
    for (let r = 0; r < rules.length; r++) {
      const rule = rules[r]!
      if ((rule.host ?? '') !== host) continue
      const paths = rule.http?.paths ?? []
      for (let p = 0; p < paths.length; p++) {
        const path = paths[p]!
        const port = servicePorts.of(ingress.metadata.namespace, path.backend)
        if (!port) continue
        // A use-regex path is served as its literal prefix, or not at all (route-rewrite.ts).
        const read = readRoutePath(ingress, path)
        if ('refused' in read) {
          rejections.push({ object: owner, reason: `spec.rules[${r}].http.paths[${p}].path: ${read.refused}; this path is not served` })
          continue
        }
        const { match } = read
        const key = `${match.match} ${match.path}`
        const winner = routes.get(key)
        if (winner) {
          const by = winner.owner === owner ? 'an earlier path of the same Ingress' : winner.owner
          rejections.push({ object: owner, reason: `spec.rules[${r}].http.paths[${p}]: ${describeRoute(host, match)} is already served by ${by}` })
          continue
        }
        // A literal, not `{ ...match }`: a spread gives each route its own hidden class, which costs
        // memory and time for every route of a full rebuild. The key order is the stored JSON's.
        routes.set(
          key,
          refused
            ? { match: match.match, path: match.path, backend: port.ref, backendName: REFUSED_BACKEND, owner, refused }
            : access
              ? { match: match.match, path: match.path, backend: port.ref, backendName: port.name, owner, access }
              : { match: match.match, path: match.path, backend: port.ref, backendName: port.name, owner },
        )
      }
    }
  }
  return sortFew([...routes.values()], compareRouteMatch)
}

export function describeRoute(host: string, match: RouteMatch): string {
  return `host "${host || '*'}" ${match.match} ${match.path}`
}

function chooseTls(host: string, ingresses: Ingress[], state: ClusterState, rejections: Rejection[]) {
  let chosen: { secret: string; ingress: Ingress } | undefined
  for (const ingress of ingresses) {
    const owner = describeIngress(ingress)
    ingress.spec.tls?.forEach((tls, t) => {
      if (!tls.hosts?.includes(host)) return
      const resolved = resolveTlsSecret(state, ingress.metadata.namespace, tls.secretName)
      if (!resolved.ok) {
        rejections.push({ object: owner, reason: `spec.tls[${t}]: ${resolved.reason}` })
        // The Secret is told too, so that a write of the Secret alone answers why it is not served.
        if (resolved.problem)
          rejections.push({ object: describeRef({ kind: 'Secret', namespace: ingress.metadata.namespace, name: tls.secretName! }), reason: resolved.problem })
        return
      }
      if (!chosen) chosen = { secret: resolved.key, ingress }
      else if (chosen.secret !== resolved.key) {
        rejections.push({
          object: owner,
          reason: `spec.tls[${t}]: host "${host}" already uses Secret ${chosen.secret} from ${describeIngress(chosen.ingress)}`,
        })
      }
    })
  }
  return chosen
}
