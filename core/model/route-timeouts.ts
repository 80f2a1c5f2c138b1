import type { Ingress } from '../kube/ingress.ts'
import { ingressAnnotations } from './ingress-annotations.ts'
import { describeIngress } from './ingress-order.ts'

/**
 * The timeouts an Ingress sets for its routes, in milliseconds: HAProxy's `timeout server` and
 * `timeout tunnel` for the requests they serve. (`timeout connect` is not here: HAProxy 2.6 sets
 * it per backend only, and a Service's backend is shared by every Ingress naming it.)
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

interface TimedRoute {
  owner: string
  refused?: true
  redirect?: unknown
  timeouts?: RouteTimeouts
}

/**
 * The routes of Ingresses that set timeouts, with them (a refused or redirected route reaches no
 * Service, so it has none). The rest are returned as they are: only those routes are copied.
 */
export function withTimeouts<R extends TimedRoute>(routes: R[], ingresses: readonly Ingress[]): R[] {
  const byOwner = new Map<string, RouteTimeouts>()
  for (const ingress of ingresses) {
    const timeouts = routeTimeoutsOf(ingress)
    if (timeouts) byOwner.set(describeIngress(ingress), timeouts)
  }
  if (byOwner.size === 0) return routes
  return routes.map((route) => {
    const timeouts = route.refused || route.redirect ? undefined : byOwner.get(route.owner)
    return timeouts ? { ...route, timeouts } : route
  })
}
