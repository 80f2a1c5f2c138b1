import type { Gateway, Listener } from '../kube/gateway.ts'
import type { ClusterState } from './cluster-state.ts'
import type { Rejection } from './rejection.ts'
import { resolveTlsSecret } from './tls-secret.ts'

export const describeGateway = (gateway: Gateway) => `Gateway ${gateway.metadata.namespace}/${gateway.metadata.name}`

/** The Secret (`{namespace, name}`) an HTTPS listener serves: its first certificateRef, a Secret of the Gateway's own namespace. */
export function listenerCertificate(listener: Listener, gateway: Gateway): { namespace: string; name: string } | undefined {
  const ref = listener.protocol === 'HTTPS' ? listener.tls?.certificateRefs?.[0] : undefined
  if (!ref || (ref.group ?? '') !== '' || (ref.kind ?? 'Secret') !== 'Secret') return undefined
  const { namespace } = gateway.metadata
  return (ref.namespace ?? namespace) === namespace ? { namespace, name: ref.name } : undefined
}

/** Whether a Gateway's HTTPS listeners name the Secret `namespace/name` (its change re-derives the Gateway's hosts). */
export function gatewayNamesSecret(gateway: Gateway, secret: string): boolean {
  return gateway.spec.listeners.some((listener) => {
    const certificate = listenerCertificate(listener, gateway)
    return certificate !== undefined && `${certificate.namespace}/${certificate.name}` === secret
  })
}

/** What a Gateway of this cluster's classes asks for that hapedge does not serve, each with its field path. */
export function gatewayRejection(gateway: Gateway, state: ClusterState): Rejection | undefined {
  if (!state.servesGatewayClass(gateway.spec.gatewayClassName)) return undefined
  const reasons: string[] = []
  if ((gateway.spec.addresses?.length ?? 0) > 0)
    reasons.push("spec.addresses is not honoured by hapedge: it serves every Gateway on the cluster's HTTP and HTTPS binds")
  gateway.spec.listeners.forEach((listener, l) => {
    const at = `spec.listeners[${l}]`
    if (listener.protocol !== 'HTTP' && listener.protocol !== 'HTTPS')
      return reasons.push(`${at}.protocol: ${listener.protocol} is not served by hapedge (HTTP and HTTPS are)`)
    const from = listener.allowedRoutes?.namespaces?.from ?? 'Same'
    if (from !== 'Same' && from !== 'All')
      reasons.push(`${at}.allowedRoutes.namespaces.from: ${from} is not honoured by hapedge, so the listener admits no route`)
    if (listener.protocol === 'HTTP') return
    const tls = listener.tls
    if (tls?.mode !== undefined && tls.mode !== 'Terminate') return reasons.push(`${at}.tls.mode: ${tls.mode} is not served by hapedge (Terminate is)`)
    if (tls?.options && Object.keys(tls.options).length > 0) reasons.push(`${at}.tls.options is not honoured by hapedge`)
    if ((tls?.certificateRefs?.length ?? 0) > 1) reasons.push(`${at}.tls.certificateRefs: hapedge serves the first certificate only`)
    const certificate = listenerCertificate(listener, gateway)
    if (!certificate)
      return reasons.push(`${at}.tls.certificateRefs[0]: hapedge serves a Secret of the Gateway's namespace, so the listener serves no certificate`)
    const resolved = resolveTlsSecret(state, certificate.namespace, certificate.name)
    if (!resolved.ok) reasons.push(`${at}.tls.certificateRefs[0]: ${resolved.reason}`)
  })
  return reasons.length > 0 ? { object: describeGateway(gateway), reason: reasons.join('; ') } : undefined
}
