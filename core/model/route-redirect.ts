import type { Ingress } from '../kube/ingress.ts'
import { REDIRECT_BACKEND } from './backend-ref.ts'
import { ingressAnnotations } from './ingress-annotations.ts'
import { type OwnedRoute, withOwnerValues } from './owner-values.ts'

/**
 * A route answered with a redirect instead of being served: the status code and the Location, a
 * URL as written (an Ingress's) or the request's own with some of its parts replaced (an HTTPRoute's
 * RequestRedirect, whose new path is the route's rewrite: gateway-filters.ts).
 */
export type RouteRedirect = { code: number; url: string } | { code: number; parts: RedirectParts }

/** What a redirect made from the request replaces in it: each part absent keeps the request's. */
export interface RedirectParts {
  scheme?: 'http' | 'https'
  hostname?: string
  /** A port; `request` for the one the client named in its Host header; absent, the scheme's own (none in the Location). */
  port?: number | 'request'
}

/** The codes of temporal-redirect and permanent-redirect when the Ingress names none (ingress-nginx's). */
export const TEMPORAL_REDIRECT_CODE = 302
export const PERMANENT_REDIRECT_CODE = 301

/** An Ingress's redirect of all its routes, if it asks for one: temporal-redirect first, then permanent-redirect, as ingress-nginx reads them. */
export function routeRedirectOf(ingress: Ingress): RouteRedirect | undefined {
  const rendered = ingressAnnotations(ingress).rendered
  const temporal = rendered['temporal-redirect']
  if (temporal !== undefined) return { code: rendered['temporal-redirect-code'] ?? TEMPORAL_REDIRECT_CODE, url: temporal }
  const permanent = rendered['permanent-redirect']
  if (permanent !== undefined) return { code: rendered['permanent-redirect-code'] ?? PERMANENT_REDIRECT_CODE, url: permanent }
  return undefined
}

interface RedirectableRoute extends OwnedRoute {
  backendName: string
  redirect?: RouteRedirect
}

/**
 * The routes of Ingresses that redirect, pointed at REDIRECT_BACKEND with their redirect (a
 * refused route stays refused).
 */
export function withRedirects<R extends RedirectableRoute>(routes: R[], ingresses: readonly Ingress[]): R[] {
  return withOwnerValues(routes, ingresses, routeRedirectOf, (route, redirect) =>
    route.refused ? route : { ...route, backendName: REDIRECT_BACKEND, redirect },
  )
}
