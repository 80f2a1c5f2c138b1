import type { Ingress } from '../kube/ingress.ts'
import type { ClusterState } from './cluster-state.ts'
import { type ClientCert, clientCertOf, sameClientCert } from './client-cert.ts'
import { describeIngress } from './ingress-order.ts'
import type { Rejection } from './rejection.ts'

export interface HostClientCert {
  clientCert?: ClientCert
  /** Ingresses (`Ingress ns/name`) that ask the host's clients for something else than it does: their routes answer 503. */
  refused: ReadonlySet<string>
}

/** What most hosts refuse: nothing (one set for them all). */
const NONE_REFUSED: ReadonlySet<string> = new Set()

/**
 * What a host asks of its clients' certificates: what its oldest Ingress that asks for any asks
 * (as ingress-nginx's server takes it from its first), for every route of the host. An Ingress
 * that asks for other certificates is refused rather than served under the first one's; rules
 * without a host have no name (SNI) to ask by, so an Ingress asking there is refused too.
 */
export function hostClientCert(host: string, ingresses: readonly Ingress[], state: ClusterState, rejections: Rejection[]): HostClientCert {
  let refused: Set<string> | undefined
  let chosen: { clientCert: ClientCert; owner: string } | undefined
  for (const ingress of ingresses) {
    const reading = clientCertOf(ingress, state)
    if (!('clientCert' in reading)) continue
    const owner = describeIngress(ingress)
    if (host === '') {
      ;(refused ??= new Set()).add(owner)
      rejections.push({ object: owner, reason: 'client certificates are asked for by host name (SNI), and rules without a host have none; they answer 503' })
    } else if (!chosen) chosen = { clientCert: reading.clientCert, owner }
    else if (!sameClientCert(chosen.clientCert, reading.clientCert)) {
      ;(refused ??= new Set()).add(owner)
      rejections.push({
        object: owner,
        reason: `host "${host}" asks for the client certificates ${chosen.owner} sets, not for these: its routes of the host answer 503`,
      })
    }
  }
  return chosen ? { clientCert: chosen.clientCert, refused: refused ?? NONE_REFUSED } : { refused: refused ?? NONE_REFUSED }
}
