import type { Ingress } from '../kube/ingress.ts'
import { REDIRECT_BACKEND } from './backend-ref.ts'
import { ingressAnnotations } from './ingress-annotations.ts'
import { describeIngress } from './ingress-order.ts'

/** A route answered with a redirect instead of being served: the status code and the Location. */
export interface RouteRedirect {
  code: number
  url: string
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

interface RedirectableRoute {
  owner: string
  backendName: string
  refused?: true
  redirect?: RouteRedirect
}

/**
 * The routes of Ingresses that redirect, pointed at REDIRECT_BACKEND with their redirect (a
 * refused route stays refused). The rest are returned as they are: a redirect is rare, so only its
 * routes are copied.
 */
export function withRedirects<R extends RedirectableRoute>(routes: R[], ingresses: readonly Ingress[]): R[] {
  const byOwner = new Map<string, RouteRedirect>()
  for (const ingress of ingresses) {
    const redirect = routeRedirectOf(ingress)
    if (redirect) byOwner.set(describeIngress(ingress), redirect)
  }
  if (byOwner.size === 0) return routes
  return routes.map((route) => {
    const redirect = route.refused ? undefined : byOwner.get(route.owner)
    return redirect ? { ...route, backendName: REDIRECT_BACKEND, redirect } : route
  })
}
