import { backendVariantName, type BackendRef } from './backend-ref.ts'
import type { Ingress } from '../kube/ingress.ts'
import { reachesService, withOwnerValues, type OwnedRoute } from './owner-values.ts'
import { upstreamFor, upstreamOf, type Upstream } from './upstream.ts'

interface UpstreamRoute extends OwnedRoute {
  backend: BackendRef
  backendName: string
  upstream?: Upstream
}

/**
 * The routes of Ingresses that set backend settings, sent to the Service's backend for those
 * settings (backendVariantName) and carrying them; a refused or redirected route reaches no Service.
 */
export function withUpstreams<R extends UpstreamRoute>(routes: R[], ingresses: readonly Ingress[]): R[] {
  return withOwnerValues(
    routes,
    ingresses,
    (ingress) => {
      const reading = upstreamOf(ingress)
      return reading.upstream || reading.services ? reading : undefined
    },
    (route, reading) => {
      const upstream = upstreamFor(reading, route.backend.service)
      return upstream && reachesService(route) ? { ...route, backendName: backendVariantName(route.backend, upstream), upstream } : route
    },
  )
}
