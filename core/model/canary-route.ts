import type { Ingress } from '../kube/ingress.ts'
import { backendName, backendRef, backendVariantName, type BackendRef } from './backend-ref.ts'
import { canaryOf, type CanaryRule } from './canary.ts'
import type { ClusterState } from './cluster-state.ts'
import { ingressRefusal } from './ingress-refusal.ts'
import { describeIngress } from './ingress-order.ts'
import { reachesService } from './owner-values.ts'
import type { Rejection } from './rejection.ts'
import { readRoutePath } from './route-rewrite.ts'
import type { RouteMatch } from './routes.ts'
import { upstreamOf, type Upstream } from './upstream.ts'

/** A route's canary: the canary Ingress, the Service it sends its share to, and which share (canary.ts). */
export interface RouteCanary extends CanaryRule {
  owner: string
  backend: BackendRef
  /** The HAProxy backend: the canary Service's, for the main route's backend settings with the canary's own balancing. */
  backendName: string
  upstream?: Upstream
}

interface CanaryHost extends RouteMatch {
  owner: string
  backend: BackendRef
  backendName: string
  upstream?: Upstream
  refused?: true
  redirect?: unknown
  canary?: RouteCanary
}

/**
 * The canary Ingresses of a host attached to the routes they share a path with (the same match and
 * path), the oldest first. As in ingress-nginx, a path gets one canary, a canary path no Ingress
 * serves is not served, and a canary of the main route's own Service is none; each is reported.
 * A refused Ingress is no canary: the main route keeps all the traffic.
 */
export function withCanaries<R extends CanaryHost>(host: string, routes: R[], canaries: readonly Ingress[], state: ClusterState, rejections: Rejection[]): R[] {
  if (canaries.length === 0) return routes
  reportCanaryTls(host, canaries, rejections)
  const byMatch = new Map(routes.map((route, index) => [`${route.match} ${route.path}`, index]))
  const result = [...routes]
  for (const ingress of canaries) {
    const rule = canaryOf(ingress)!
    const owner = describeIngress(ingress)
    const refused = ingressRefusal(ingress, state) !== undefined
    ingress.spec.rules?.forEach((hostRule, r) => {
      if ((hostRule.host ?? '') !== host) return
      hostRule.http?.paths.forEach((path, p) => {
        const backend = backendRef(ingress.metadata.namespace, path.backend)
        if (!backend) return
        const reject = (why: string) => rejections.push({ object: owner, reason: `spec.rules[${r}].http.paths[${p}]: ${why}` })
        const read = readRoutePath(ingress, path)
        if ('refused' in read) return reject(`${read.refused}; this canary path is not served`)
        const where = `host "${host || '*'}" ${read.match.match} ${read.match.path}`
        if (refused) return reject(`the Ingress is refused, so it is no canary of ${where}: the main Ingress takes all the traffic`)
        const index = byMatch.get(`${read.match.match} ${read.match.path}`)
        const main = index === undefined ? undefined : result[index]!
        if (!main) return reject(`no Ingress serves ${where}, so this canary is not served (ingress-nginx skips it too)`)
        if (!reachesService(main)) return reject(`${where} of ${main.owner} reaches no Service (refused or redirected), so it takes no canary`)
        if (main.canary) return reject(`${where} already has the canary ${main.canary.owner}: one canary per path, as in ingress-nginx`)
        if (backendName(backend) === backendName(main.backend)) return reject(`${where} of ${main.owner} already sends to this Service: it is no canary`)
        const upstream = canaryUpstream(main.upstream, upstreamOf(ingress).upstream)
        const canary: RouteCanary = { owner, backend, backendName: backendVariantName(backend, upstream), ...rule }
        if (upstream) canary.upstream = upstream
        result[index!] = { ...main, canary }
      })
    })
  }
  return result
}

/**
 * The canary's backend settings: the main route's (its protocol, TLS, timeouts, affinity, which
 * ingress-nginx gives the canary too), with the canary Ingress's own balancing, which it keeps.
 */
function canaryUpstream(main: Upstream | undefined, own: Upstream | undefined): Upstream | undefined {
  const { balance: _balance, hashBy: _hashBy, ...inherited } = main ?? {}
  const upstream: Upstream = { ...inherited }
  if (own?.balance) upstream.balance = own.balance
  if (own?.hashBy) upstream.hashBy = own.hashBy
  return Object.keys(upstream).length > 0 ? upstream : undefined
}

/** A canary's TLS entries for the host: the main Ingress's certificate serves it (ingress-nginx makes no server of a canary), so each is reported, never silently dropped. */
function reportCanaryTls(host: string, canaries: readonly Ingress[], rejections: Rejection[]): void {
  for (const ingress of canaries)
    ingress.spec.tls?.forEach((tls, t) => {
      if (tls.hosts?.includes(host))
        rejections.push({
          object: describeIngress(ingress),
          reason: `spec.tls[${t}]: a canary Ingress serves no certificate for host "${host}": the main Ingress's TLS applies`,
        })
    })
}
