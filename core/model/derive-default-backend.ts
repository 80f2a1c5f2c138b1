import { accessGroupOf } from './access-group.ts'
import { backendRef, backendVariantName, REFUSED_BACKEND, type BackendRef } from './backend-ref.ts'
import { canaryOf } from './canary.ts'
import type { ClusterState } from './cluster-state.ts'
import { ingressRefusal } from './ingress-refusal.ts'
import { clientCertOf } from './client-cert.ts'
import { compareIngressPrecedence, describeIngress } from './ingress-order.ts'
import type { Rejection } from './rejection.ts'
import { upstreamFor, upstreamOf, type Upstream } from './upstream.ts'

export interface DerivedDefaultBackend {
  /** The Service the catch-all sends to (none when there is no catch-all, or its Ingress is refused). */
  backend?: BackendRef
  /** The HAProxy backend the default map names: the Service's, or REFUSED_BACKEND. */
  name?: string
  /** The access group of its Ingress (source ranges), checked as for its routes. */
  access?: string
  /** Its Ingress's backend settings, which name its backend (backendVariantName). */
  upstream?: Upstream
  rejections: Rejection[]
}

/**
 * The cluster's catch-all: the oldest served Ingress's `spec.defaultBackend`; any other is
 * reported. A refused Ingress keeps its claim, and the catch-all answers 503.
 */
export function deriveDefaultBackend(state: ClusterState): DerivedDefaultBackend {
  const served = state
    .ingressesWithDefaultBackend()
    .filter((ingress) => state.serves(ingress))
    .sort(compareIngressPrecedence)
  const canaries = served.filter((ingress) => canaryOf(ingress))
  const [winner, ...losers] = canaries.length === 0 ? served : served.filter((ingress) => !canaryOf(ingress))
  const canaryRejections = canaries.map((ingress) => ({
    object: describeIngress(ingress),
    reason: 'spec.defaultBackend: a canary Ingress has no share of the default backend in hapedge; it is not served',
  }))
  if (!winner) return { rejections: canaryRejections }
  const rejections = [
    ...canaryRejections,
    ...losers.map((ingress) => ({
      object: describeIngress(ingress),
      reason: `spec.defaultBackend: the default backend is already set by ${describeIngress(winner)}`,
    })),
  ]
  if (ingressRefusal(winner, state) !== undefined) return { name: REFUSED_BACKEND, rejections }
  // Client certificates are asked for by host name (SNI): the catch-all has none, so it is refused rather than served open.
  if ('clientCert' in clientCertOf(winner, state)) {
    const reason = 'spec.defaultBackend: client certificates are asked for by host name (SNI), and the default backend has none; it answers 503'
    return { name: REFUSED_BACKEND, rejections: [...rejections, { object: describeIngress(winner), reason }] }
  }
  const backend = backendRef(winner.metadata.namespace, winner.spec.defaultBackend!)
  if (!backend) return { rejections }
  const access = accessGroupOf(winner, state)?.name
  const upstream = upstreamFor(upstreamOf(winner), backend.service)
  const derived: DerivedDefaultBackend = access
    ? { backend, name: backendVariantName(backend, upstream), access, rejections }
    : { backend, name: backendVariantName(backend, upstream), rejections }
  if (upstream) derived.upstream = upstream
  return derived
}
