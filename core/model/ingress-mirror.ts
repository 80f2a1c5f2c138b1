import { REQUEST_URI_VARIABLE } from '../annotations/mirror-values.ts'
import type { Ingress } from '../kube/ingress.ts'
import { ingressAnnotations } from './ingress-annotations.ts'
import { type OwnedRoute, reachesService, withOwnerValues } from './owner-values.ts'

/**
 * ingress-nginx's mirror (mirror-target and its companions): each request of the Ingress's routes
 * is copied to a URL by the shipped Lua, its answer discarded (render-mirror.ts, mirror-lua.ts).
 * The URL was validated by its parser (mirror-values.ts): its origin is the Ingress author's,
 * never the client's.
 */
export interface UrlMirror {
  /** The URL as written, its scheme lower-cased; `$request_uri` is the request's path and query, written in per copy. */
  url: string
  /** The copies' Host header: mirror-host, else the URL's host name, as ingress-nginx sets it. */
  host: string
  /** Whether a copy carries the request's body (mirror-request-body, on unless set). */
  body: boolean
}

/** An Ingress's mirror, if its annotations ask for one. */
export function urlMirrorOf(ingress: Ingress): UrlMirror | undefined {
  const rendered = ingressAnnotations(ingress).rendered
  const url = rendered['mirror-target']
  if (url === undefined) return undefined
  const origin = new URL(url.replace(REQUEST_URI_VARIABLE, '/'))
  return {
    url: url.replace(/^[A-Za-z]+:/, (scheme) => scheme.toLowerCase()),
    host: rendered['mirror-host'] ?? origin.hostname,
    body: rendered['mirror-request-body'] ?? true,
  }
}

interface MirroredRoute extends OwnedRoute {
  urlMirror?: UrlMirror
}

/** The routes of Ingresses that ask for a mirror, with it (a refused or redirected route reaches no Service, so none is copied). */
export function withUrlMirrors<R extends MirroredRoute>(routes: R[], ingresses: readonly Ingress[]): R[] {
  return withOwnerValues(routes, ingresses, urlMirrorOf, (route, urlMirror) => (reachesService(route) ? { ...route, urlMirror } : route))
}
