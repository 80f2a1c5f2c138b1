import type { AuthMethod } from '../annotations/external-auth-values.ts'
import type { Ingress } from '../kube/ingress.ts'
import { ingressAnnotations } from './ingress-annotations.ts'
import { type OwnedRoute, reachesService, withOwnerValues } from './owner-values.ts'

/**
 * External authentication of a route (ingress-nginx auth-url and its companions): before the
 * request goes on, the auth service is asked (by the Lua hapedge ships, render-external-auth.ts).
 * Every field was validated by its parser (external-auth-values.ts), so none can end a map line
 * or hold anything but the URL, method and header names it is.
 */
export interface ExternalAuth {
  method: AuthMethod
  /** The auth service's URL; `$host` stands for the route's host (written in by the renderer). */
  url: string
  /** Where a 401 is redirected, with the original URL's parameter already added (its variables are read per request). */
  signin?: string
  /** The auth answer's headers set on the request the Service receives (lower-case). */
  responseHeaders: string[]
  /** X-Auth-Request-Redirect sent to the auth service (the request URI when absent). */
  requestRedirect?: string
  /** The client's headers the auth service is sent (lower-case), when not all of them. */
  requestHeaders?: string[]
}

/** ingress-nginx's default parameter of auth-signin that carries the original URL (`rd`). */
export const DEFAULT_REDIRECT_PARAM = 'rd'

/** ingress-nginx's original URL in the sign-in redirect: `$pass_access_scheme://$http_host$escaped_request_uri`. */
const ORIGINAL_URL = '$scheme://$http_host$escaped_request_uri'

/** An Ingress's external authentication, if its annotations ask for one (auth-url). */
export function externalAuthOf(ingress: Ingress): ExternalAuth | undefined {
  const rendered = ingressAnnotations(ingress).rendered
  const url = rendered['auth-url']
  if (url === undefined) return undefined
  const auth: ExternalAuth = { method: rendered['auth-method'] ?? 'GET', url, responseHeaders: rendered['auth-response-headers'] ?? [] }
  const signin = rendered['auth-signin']
  if (signin !== undefined) auth.signin = withRedirectParam(signin, rendered['auth-signin-redirect-param'] ?? DEFAULT_REDIRECT_PARAM)
  const redirect = rendered['auth-request-redirect']
  if (redirect !== undefined) auth.requestRedirect = redirect
  const requestHeaders = rendered['auth-request-headers']
  if (requestHeaders !== undefined && requestHeaders !== 'all') auth.requestHeaders = requestHeaders
  return auth
}

/**
 * As ingress-nginx's buildAuthSignURL: the original URL is added in `param` unless the sign-in URL
 * already has that parameter (`?rd=$escaped_request_uri`), after `?` or `&` as its query needs.
 */
export function withRedirectParam(signin: string, param: string): string {
  if (param === '') return signin
  const query = signin.includes('?') ? signin.slice(signin.indexOf('?') + 1) : undefined
  if (query?.split('&').some((pair) => pair.split('=')[0] === param)) return signin
  return `${signin}${query === undefined ? '?' : query === '' ? '' : '&'}${param}=${ORIGINAL_URL}`
}

interface AuthenticatedRoute extends OwnedRoute {
  externalAuth?: ExternalAuth
}

/** The routes of Ingresses that ask for external authentication, with it (a refused or redirected route reaches no Service, so it has none). */
export function withExternalAuth<R extends AuthenticatedRoute>(routes: R[], ingresses: readonly Ingress[]): R[] {
  return withOwnerValues(routes, ingresses, externalAuthOf, (route, externalAuth) => (reachesService(route) ? { ...route, externalAuth } : route))
}
