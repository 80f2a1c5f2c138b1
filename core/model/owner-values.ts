import type { Ingress } from '../kube/ingress.ts'
import { describeIngress } from './ingress-order.ts'

/** A route as the per-Ingress settings see it: the Ingress that owns it, and whether it reaches a Service at all. */
export interface OwnedRoute {
  owner: string
  refused?: true
  redirect?: unknown
}

/**
 * The routes with what their owner's annotations set for them (a redirect, timeouts, backend
 * settings …): `readValue` reads it from an Ingress, `apply` gives the route that carries it. Routes
 * whose owner sets nothing, and those `apply` leaves alone, are returned as they are: such
 * annotations are rare, so only their routes are copied.
 */
export function withOwnerValues<R extends OwnedRoute, V>(
  routes: R[],
  ingresses: readonly Ingress[],
  readValue: (ingress: Ingress) => V | undefined,
  apply: (route: R, value: V) => R,
): R[] {
  // Made at the first value: a full rebuild asks this of every host, and most have none.
  let byOwner: Map<string, V> | undefined
  for (const ingress of ingresses) {
    const value = readValue(ingress)
    if (value !== undefined) (byOwner ??= new Map()).set(describeIngress(ingress), value)
  }
  if (!byOwner) return routes
  const values = byOwner
  return routes.map((route) => {
    const value = values.get(route.owner)
    return value === undefined ? route : apply(route, value)
  })
}

/** Whether a route reaches its Service: not refused (503) and not answered by a redirect. */
export const reachesService = (route: OwnedRoute) => !route.refused && !route.redirect
