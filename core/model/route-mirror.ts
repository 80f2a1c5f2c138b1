import type { BackendRef } from './backend-ref.ts'

/**
 * A Service a route's requests are copied to (an HTTPRoute's RequestMirror): `numerator` of every
 * `denominator` requests, drawn per request, each copy sent to one of its endpoints and its answer
 * discarded (render-mirror.ts, mirror-lua.ts).
 */
export interface RouteMirror {
  backend: BackendRef
  /** The Service's backend (backendName): its servers are the endpoints HAProxy knows, kept by the runtime API. */
  backendName: string
  numerator: number
  denominator: number
}
