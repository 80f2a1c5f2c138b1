import type { BodySize } from '../annotations/values.ts'
import type { Ingress } from '../kube/ingress.ts'
import { ingressAnnotations } from './ingress-annotations.ts'
import { type OwnedRoute, reachesService, withOwnerValues } from './owner-values.ts'

/**
 * The largest request body a route accepts (proxy-body-size), in bytes; `null` when the Ingress
 * asks for no limit (`0`, `unlimited`). HAProxy reads it from a map at request time and answers
 * 413 above it (render-body-size.ts).
 */
export type RouteBodySize = BodySize

/** An Ingress's body size limit: undefined when it sets none. */
export function bodySizeOf(ingress: Ingress): RouteBodySize | undefined {
  return ingressAnnotations(ingress).rendered['proxy-body-size']
}

interface SizedRoute extends OwnedRoute {
  bodySize?: RouteBodySize
}

/** The routes of Ingresses that set a body size limit, with it (a refused or redirected route reaches no Service, so it has none). */
export function withBodySizes<R extends SizedRoute>(routes: R[], ingresses: readonly Ingress[]): R[] {
  return withOwnerValues(routes, ingresses, bodySizeOf, (route, bodySize) => (reachesService(route) ? { ...route, bodySize } : route))
}
