import { usesService, type BackendRef } from './backend-ref.ts'
import type { Upstream } from './upstream.ts'

interface RoutedTo {
  backendName: string
  backend: BackendRef
  upstream?: Upstream
  canary?: { backendName: string; backend: BackendRef; upstream?: Upstream }
  split?: { backends: readonly { backendName: string; backend: BackendRef }[] }
}

/** The Service backends a route sends to: its own (unless refused or redirected), its canary's, and its split's others. */
export function* routeBackends(route: RoutedTo): Iterable<{ name: string; ref: BackendRef; upstream?: Upstream }> {
  if (usesService(route)) yield { name: route.backendName, ref: route.backend, upstream: route.upstream }
  const { canary } = route
  if (canary) yield { name: canary.backendName, ref: canary.backend, upstream: canary.upstream }
  for (const other of route.split?.backends.slice(1) ?? []) yield { name: other.backendName, ref: other.backend }
}
