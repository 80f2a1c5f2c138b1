import { backendRef, type BackendRef } from './backend-ref.ts'
import type { ClusterState } from './cluster-state.ts'
import { compareIngressPrecedence, describeIngress } from './ingress-order.ts'
import type { Rejection } from './rejection.ts'

/** The cluster's catch-all: the oldest served Ingress's `spec.defaultBackend`; any other is reported. */
export function deriveDefaultBackend(state: ClusterState): { backend?: BackendRef; rejections: Rejection[] } {
  const ingresses = state
    .ingressesWithDefaultBackend()
    .filter((ingress) => state.serves(ingress))
    .sort(compareIngressPrecedence)
  const [winner, ...losers] = ingresses
  if (!winner) return { rejections: [] }
  const rejections = losers.map((ingress) => ({
    object: describeIngress(ingress),
    reason: `spec.defaultBackend: the default backend is already set by ${describeIngress(winner)}`,
  }))
  return { backend: backendRef(winner.metadata.namespace, winner.spec.defaultBackend!), rejections }
}
