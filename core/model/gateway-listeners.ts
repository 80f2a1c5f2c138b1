import { GATEWAY_API } from '../kube/gateway-class.ts'
import type { Gateway, Listener } from '../kube/gateway.ts'
import type { ClusterState } from './cluster-state.ts'
import type { Rejection } from './rejection.ts'
import { resolveTlsSecret } from './tls-secret.ts'
import { listenerPortRefusal } from './gateway-ports.ts'
import { HONOURED_FROM, listenerSelector, namespacesFrom } from './gateway-namespaces.ts'
import { grantsReference } from './reference-grants.ts'

export const describeGateway = (gateway: Gateway) => `Gateway ${gateway.metadata.namespace}/${gateway.metadata.name}`

/** The Secret (`{namespace, name}`) an HTTPS listener names by its first certificateRef, of whatever namespace. */
export function listenerCertificateRef(listener: Listener, gateway: Gateway): { namespace: string; name: string } | undefined {
  const ref = listener.protocol === 'HTTPS' ? listener.tls?.certificateRefs?.[0] : undefined
  if (!ref || (ref.group ?? '') !== '' || (ref.kind ?? 'Secret') !== 'Secret') return undefined
  return { namespace: ref.namespace ?? gateway.metadata.namespace, name: ref.name }
}

/**
 * The Secret an HTTPS listener serves: the one it names, of the Gateway's namespace or of one
 * whose ReferenceGrant lets Gateways of the Gateway's namespace refer to it.
 */
export function listenerCertificate(
  listener: Listener,
  gateway: Gateway,
  cluster: Pick<ClusterState, 'referenceGrants'>,
): { namespace: string; name: string } | undefined {
  const certificate = listenerCertificateRef(listener, gateway)
  return certificate && certificatePermitted(certificate, gateway, cluster) ? certificate : undefined
}

function certificatePermitted(certificate: { namespace: string; name: string }, gateway: Gateway, cluster: Pick<ClusterState, 'referenceGrants'>): boolean {
  const from = { kind: 'Gateway', namespace: gateway.metadata.namespace }
  return (
    certificate.namespace === from.namespace ||
    grantsReference(cluster.referenceGrants(certificate.namespace), from, { kind: 'Secret', name: certificate.name })
  )
}

/** Whether a Gateway's HTTPS listeners name the Secret `namespace/name`, permitted or not (its change re-derives the Gateway's hosts). */
export function gatewayNamesSecret(gateway: Gateway, secret: string): boolean {
  return gateway.spec.listeners.some((listener) => {
    const certificate = listenerCertificateRef(listener, gateway)
    return certificate !== undefined && `${certificate.namespace}/${certificate.name}` === secret
  })
}

/** Whether a Gateway's HTTPS listeners name a Secret of another namespace than its own, this one (a ReferenceGrant there permits it or not). */
export function gatewayNamesSecretIn(gateway: Gateway, namespace: string): boolean {
  return (
    namespace !== gateway.metadata.namespace && gateway.spec.listeners.some((listener) => listenerCertificateRef(listener, gateway)?.namespace === namespace)
  )
}

/** The route kinds a listener of this protocol takes (the same group as the Gateway), HTTPS's without GRPCRoute when the bind offers no HTTP/2 (`http2`). */
export function routeKindsOf(protocol: string, http2: boolean): readonly string[] {
  if (protocol === 'HTTPS' && !http2) return ['HTTPRoute']
  return protocol === 'HTTP' || protocol === 'HTTPS' ? SERVED_ROUTE_KINDS : []
}

const SERVED_ROUTE_KINDS: readonly string[] = ['HTTPRoute', 'GRPCRoute']

/**
 * Why a listener that lists a route kind does not take its routes: a GRPCRoute on HTTPS while the
 * bind offers no HTTP/2 by ALPN (settings `use-http2`), which every gRPC client needs; on HTTP,
 * HAProxy reads HTTP/2 with prior knowledge whatever the setting.
 */
export function kindRefusal(listener: Listener, kind: string, http2: boolean): string | undefined {
  if (routeKindsOf(listener.protocol, http2).includes(kind) || !routeKindsOf(listener.protocol, true).includes(kind)) return undefined
  return `${kind} is not served on HTTPS while settings use-http2 is false: gRPC clients need HTTP/2, which the HTTPS bind does not offer (NotAllowedByListeners)`
}

/**
 * Where a listener falls short, as its status says it (the condition made False, the
 * specification's reason) and as the report says it (with the field path). `blocking: false`:
 * served without it (the condition stays True and names it).
 */
export interface ListenerProblem {
  condition: 'Accepted' | 'ResolvedRefs'
  reason: 'UnsupportedProtocol' | 'PortUnavailable' | 'UnsupportedValue' | 'InvalidCertificateRef' | 'InvalidRouteKinds' | 'RefNotPermitted'
  message: string
  blocking: boolean
}

/** What one listener of a Gateway asks for that hapedge does not serve, or cannot resolve. */
export function listenerProblems(listener: Listener, l: number, gateway: Gateway, state: ClusterState): ListenerProblem[] {
  const at = `spec.listeners[${l}]`
  const problems: ListenerProblem[] = []
  const problem = (condition: ListenerProblem['condition'], reason: ListenerProblem['reason'], message: string, blocking = true) =>
    problems.push({ condition, reason, message, blocking })
  if (listener.protocol !== 'HTTP' && listener.protocol !== 'HTTPS') {
    problem('Accepted', 'UnsupportedProtocol', `${at}.protocol: ${listener.protocol} is not served by hapedge (HTTP and HTTPS are)`)
    return problems
  }
  const port = listenerPortRefusal(listener, state.options)
  if (port) {
    problem('Accepted', 'PortUnavailable', `${at}.port: ${port}`)
    return problems
  }
  const from = namespacesFrom(listener)
  if (!HONOURED_FROM.has(from))
    problem('Accepted', 'UnsupportedValue', `${at}.allowedRoutes.namespaces.from: ${from} is not honoured by hapedge, so the listener admits no route`)
  const selector = from === 'Selector' ? listenerSelector(listener) : undefined
  if (selector && 'invalid' in selector)
    problem('Accepted', 'UnsupportedValue', `${at}.allowedRoutes.namespaces.selector ${selector.invalid}, so the listener admits no route`)
  const kinds = listener.allowedRoutes?.kinds ?? []
  const served = routeKindsOf(listener.protocol, state.http2Offered())
  const unknown = kinds.filter((kind) => (kind.group ?? GATEWAY_API) !== GATEWAY_API || !served.includes(kind.kind))
  const why = served.length < routeKindsOf(listener.protocol, true).length ? ' while settings use-http2 is false' : ''
  if (unknown.length > 0)
    problem(
      'ResolvedRefs',
      'InvalidRouteKinds',
      `${at}.allowedRoutes.kinds: ${unknown.map((kind) => kind.kind).join(', ')} not served by hapedge on ${listener.protocol}${why} (${served.join(' and ')} are)`,
      unknown.length === kinds.length,
    )
  if (listener.protocol === 'HTTP') return problems
  const tls = listener.tls
  if (tls?.mode !== undefined && tls.mode !== 'Terminate') {
    problem('Accepted', 'UnsupportedValue', `${at}.tls.mode: ${tls.mode} is not served by hapedge (Terminate is)`)
    return problems
  }
  if (tls?.options && Object.keys(tls.options).length > 0) problem('Accepted', 'UnsupportedValue', `${at}.tls.options is not honoured by hapedge`, false)
  if ((tls?.certificateRefs?.length ?? 0) > 1)
    problem('ResolvedRefs', 'InvalidCertificateRef', `${at}.tls.certificateRefs: hapedge serves the first certificate only`, false)
  const certificate = listenerCertificateRef(listener, gateway)
  if (!certificate) {
    const ref = tls?.certificateRefs?.[0]
    const what = ref ? `${ref.kind ?? 'Secret'} of group "${ref.group ?? ''}" is not a certificate hapedge serves (only Secrets)` : 'none is named'
    problem('ResolvedRefs', 'InvalidCertificateRef', `${at}.tls.certificateRefs[0]: ${what}, so the listener serves no certificate`)
    return problems
  }
  if (!certificatePermitted(certificate, gateway, state)) {
    problem(
      'ResolvedRefs',
      'RefNotPermitted',
      `${at}.tls.certificateRefs[0]: no ReferenceGrant in namespace ${certificate.namespace} lets Gateways of ${gateway.metadata.namespace} refer to Secret ${certificate.name} (RefNotPermitted), so the listener serves no certificate`,
    )
    return problems
  }
  const resolved = resolveTlsSecret(state, certificate.namespace, certificate.name)
  if (!resolved.ok) problem('ResolvedRefs', 'InvalidCertificateRef', `${at}.tls.certificateRefs[0]: ${resolved.reason}`)
  return problems
}

/** What a Gateway of this cluster's classes asks for that hapedge does not serve, each with its field path. */
export function gatewayRejection(gateway: Gateway, state: ClusterState): Rejection | undefined {
  if (!state.servesGatewayClass(gateway.spec.gatewayClassName)) return undefined
  const reasons: string[] = []
  if ((gateway.spec.addresses?.length ?? 0) > 0) reasons.push(UNSUPPORTED_ADDRESSES)
  gateway.spec.listeners.forEach((listener, l) => {
    for (const { message } of listenerProblems(listener, l, gateway, state)) reasons.push(message)
  })
  return reasons.length > 0 ? { object: describeGateway(gateway), reason: reasons.join('; ') } : undefined
}

export const UNSUPPORTED_ADDRESSES = "spec.addresses is not honoured by hapedge: it serves every Gateway on the cluster's HTTP and HTTPS binds"
