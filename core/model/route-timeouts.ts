import type { Ingress } from '../kube/ingress.ts'
import { ingressAnnotations } from './ingress-annotations.ts'
import { type OwnedRoute, reachesService, withOwnerValues } from './owner-values.ts'

/**
 * The timeouts an Ingress sets for its routes, in milliseconds: HAProxy's `timeout server` and
 * `timeout tunnel` for the requests they serve. (`timeout connect` is not here: HAProxy 2.6 sets
 * it per backend only, so it is a backend setting, upstream.ts.)
 */
export interface RouteTimeouts {
  server?: number
  tunnel?: number
}

/** An Ingress's route timeouts, if it sets any. */
export function routeTimeoutsOf(ingress: Ingress): RouteTimeouts | undefined {
  const rendered = ingressAnnotations(ingress).rendered
  const server = rendered['timeout-server']
  const tunnel = rendered['timeout-tunnel']
  if (server === undefined && tunnel === undefined) return undefined
  return server === undefined ? { tunnel } : tunnel === undefined ? { server } : { server, tunnel }
}

interface TimedRoute extends OwnedRoute {
  timeouts?: RouteTimeouts
}

/** The routes of Ingresses that set timeouts, with them (a refused or redirected route reaches no Service, so it has none). */
export function withTimeouts<R extends TimedRoute>(routes: R[], ingresses: readonly Ingress[]): R[] {
  return withOwnerValues(routes, ingresses, routeTimeoutsOf, (route, timeouts) => (reachesService(route) ? { ...route, timeouts } : route))
}
