import type { Ingress } from '../kube/ingress.ts'
import { ingressAnnotations } from './ingress-annotations.ts'

/**
 * The Secret (`namespace/name`) an Ingress's basic authentication reads, in any spelling: its
 * own namespace unless the annotation names another (`namespace/name`, as ingress-nginx allows).
 */
export function authSecretOf(ingress: Ingress): string | undefined {
  const ref = ingressAnnotations(ingress).rendered['auth-secret']
  return ref && `${ref.namespace ?? ingress.metadata.namespace}/${ref.name}`
}
