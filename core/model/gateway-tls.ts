import type { Gateway } from '../kube/gateway.ts'
import type { ClusterState } from './cluster-state.ts'
import { describeGateway, listenerCertificate, listenerProblems } from './gateway-listeners.ts'
import { compareIngressPrecedence } from './ingress-order.ts'
import type { Rejection } from './rejection.ts'
import { compareText } from '../compare-text.ts'

/** The hostname a served HTTPS listener without one stands for in the misdirected-request map: it matches every name. */
export const CATCH_ALL_LISTENER = '*'

/**
 * What the served Gateways' HTTPS listeners ask of the handshake and of the Host that follows it
 * (the specification's Listener.hostname): every Gateway is served on the one HTTPS bind, so
 * their listeners are one set, as the specification's "listeners on the same port" are.
 */
export interface GatewayTls {
  /** The served HTTPS listeners' hostnames, CATCH_ALL_LISTENER for those without one, sorted and once each. */
  hostnames: string[]
  /** The Secret (`namespace/name`) of the oldest Gateway's HTTPS listener without hostname: it matches every SNI name. */
  catchAll?: string
  /** The other listeners without hostname whose certificate is not the one served to every name. */
  rejections: Rejection[]
}

/**
 * The served Gateways' HTTPS listeners: those of this cluster's classes whose listener hostname
 * the misdirected-request check reads, and the certificate for the names no other certificate
 * claims. `defaultSecret`: the settings' default-ssl-certificate, which comes first when named.
 */
export function gatewayTlsOf(state: ClusterState, defaultSecret: string | undefined): GatewayTls {
  const hostnames = new Set<string>()
  const rejections: Rejection[] = []
  let catchAll: { secret: string; by: string } | undefined
  const gateways = state
    .gateways()
    .filter((gateway) => state.servesGatewayClass(gateway.spec.gatewayClassName))
    .sort(compareIngressPrecedence)
  for (const gateway of gateways)
    gateway.spec.listeners.forEach((listener, l) => {
      if (listener.protocol !== 'HTTPS' || listenerProblems(listener, l, gateway, state).some((problem) => problem.blocking)) return
      hostnames.add(listener.hostname ?? CATCH_ALL_LISTENER)
      const certificate = listenerCertificate(listener, gateway, state)
      if (listener.hostname !== undefined || !certificate) return
      const secret = `${certificate.namespace}/${certificate.name}`
      const served = defaultSecret !== undefined ? { secret: defaultSecret, by: "the settings' default-ssl-certificate" } : catchAll
      if (!served) catchAll = { secret, by: listenerName(gateway, listener.name) }
      else if (served.secret !== secret)
        rejections.push({
          object: describeGateway(gateway),
          reason: `spec.listeners[${l}]: a TLS name no certificate claims is served ${served.by}, not this listener's (one certificate serves every name on the HTTPS bind)`,
        })
    })
  return { hostnames: [...hostnames].sort(compareText), ...(catchAll ? { catchAll: catchAll.secret } : {}), rejections }
}

const listenerName = (gateway: Gateway, name: string) => `the certificate of ${describeGateway(gateway)}'s listener "${name}" (the oldest without hostname)`
