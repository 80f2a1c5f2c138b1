import { usesService, type BackendRef } from './backend-ref.ts'
import type { Upstream } from './upstream.ts'

export interface RoutedTo {
  backendName: string
  backend: BackendRef
  upstream?: Upstream
  canary?: { backendName: string; backend: BackendRef; upstream?: Upstream }
  split?: { backends: readonly { backendName: string; backend: BackendRef; upstream?: Upstream }[] }
  mirrors?: readonly { backendName: string; backend: BackendRef }[]
}

/** A Service backend a route sends to, and the settings its variant is made with. */
export interface RouteBackend {
  name: string
  ref: BackendRef
  upstream?: Upstream
}

/**
 * The Service backends a route sends to: its own (unless refused or redirected), its canary's, its split's others that are Services', and its mirrors'.
 * A list, not a generator: a full rebuild asks it of every route.
 */
export function routeBackends(route: RoutedTo): RouteBackend[] {
  const backends: RouteBackend[] = usesService(route) ? [{ name: route.backendName, ref: route.backend, upstream: route.upstream }] : []
  const { canary, split, mirrors } = route
  if (canary) backends.push({ name: canary.backendName, ref: canary.backend, upstream: canary.upstream })
  if (split) {
    // The split's others: all but the place of the route's own backend (an HTTPRoute's first that resolves), and not UNRESOLVED_BACKEND.
    const own = split.backends.findIndex((place) => place.backendName === route.backendName)
    split.backends.forEach((other, place) => {
      if (place !== own && usesService(other)) backends.push({ name: other.backendName, ref: other.backend, upstream: other.upstream })
    })
  }
  // The Lua finds a mirror's endpoints among its backend's servers (mirror-lua.ts).
  for (const mirror of mirrors ?? []) backends.push({ name: mirror.backendName, ref: mirror.backend })
  return backends
}

/**
 * The Service backends some routes send to (a host's, or every host's added `into` one map), each
 * once by name, in the routes' order.
 */
export function routesBackends(routes: readonly RoutedTo[], into = new Map<string, RouteBackend>()): Map<string, RouteBackend> {
  for (const route of routes) {
    // Most routes send to their own Service port's backend alone, named already by another route: one lookup, no list made.
    if (!route.canary && !route.split && !route.mirrors && (into.has(route.backendName) || !usesService(route))) continue
    for (const backend of routeBackends(route)) if (!into.has(backend.name)) into.set(backend.name, backend)
  }
  return into
}
