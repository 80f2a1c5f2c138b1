import type { Ingress } from '../kube/ingress.ts'
import { backendCaOf } from './backend-ca.ts'
import { clientCertOf } from './client-cert.ts'
import { basicAuthOf } from './basic-auth.ts'
import type { ClusterState } from './cluster-state.ts'
import { ingressAnnotations } from './ingress-annotations.ts'
import { asksNothing } from '../annotations/features.ts'

/**
 * Why an Ingress is refused (its routes answer 503), if it is: its annotations ask for access
 * control hapedge does not honour, its basic authentication has no user to check, or the
 * verification of its backends' or its clients' certificates it asks for has no CA to verify with.
 */
export function ingressRefusal(ingress: Ingress, state: ClusterState): string | undefined {
  const { refusal, rendered } = ingressAnnotations(ingress)
  if (refusal !== undefined) return refusal
  // Asked of each Ingress several times a rebuild: one that asks for no feature asks for none of the three below.
  if (asksNothing(rendered)) return undefined
  const auth = basicAuthOf(ingress, state)
  if ('refusal' in auth) return auth.refusal
  const ca = backendCaOf(ingress, state)
  if ('refusal' in ca) return ca.refusal
  const clientCert = clientCertOf(ingress, state)
  return 'refusal' in clientCert ? clientCert.refusal : undefined
}
