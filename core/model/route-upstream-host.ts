import type { Ingress } from '../kube/ingress.ts'
import { ingressAnnotations } from './ingress-annotations.ts'
import { type OwnedRoute, reachesService, withOwnerValues } from './owner-values.ts'

interface HostedRoute extends OwnedRoute {
  upstreamHost?: string
}

/**
 * The routes of Ingresses that set upstream-vhost (haproxytech set-host) with the Host header their
 * Service is sent instead of the client's: a DNS name the model validated, so it is safe in a map
 * value. A refused or redirected route reaches no Service, so it has none.
 */
export function withUpstreamHosts<R extends HostedRoute>(routes: R[], ingresses: readonly Ingress[]): R[] {
  return withOwnerValues(
    routes,
    ingresses,
    (ingress) => ingressAnnotations(ingress).rendered['upstream-vhost'],
    (route, upstreamHost) => (reachesService(route) ? { ...route, upstreamHost } : route),
  )
}
