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

/** The Service backends a route sends to: its own (unless refused or redirected), its canary's, its split's others that are Services', and its mirrors'. */
export function* routeBackends(route: RoutedTo): Iterable<{ name: string; ref: BackendRef; upstream?: Upstream }> {
  if (usesService(route)) yield { name: route.backendName, ref: route.backend, upstream: route.upstream }
  const { canary } = route
  if (canary) yield { name: canary.backendName, ref: canary.backend, upstream: canary.upstream }
  // The split's others: all but the place of the route's own backend (an HTTPRoute's first that resolves), and not UNRESOLVED_BACKEND.
  const split = route.split?.backends ?? []
  const own = split.findIndex((place) => place.backendName === route.backendName)
  for (const [place, other] of split.entries())
    if (place !== own && usesService(other)) yield { name: other.backendName, ref: other.backend, upstream: other.upstream }
  // The Lua finds a mirror's endpoints among its backend's servers (mirror-lua.ts).
  for (const mirror of route.mirrors ?? []) yield { name: mirror.backendName, ref: mirror.backend }
}
