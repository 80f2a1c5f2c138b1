import { GATEWAY_API } from '../kube/gateway-class.ts'
import type { Gateway, Listener } from '../kube/gateway.ts'
import type { GatewayCondition, GatewayObjectStatus, ListenerStatus } from '../kube/gateway-status.ts'
import type { ClusterState } from '../model/cluster-state.ts'
import { listenerProblems, routeKindsOf, UNSUPPORTED_ADDRESSES, type ListenerProblem } from '../model/gateway-listeners.ts'
import { gatewayCondition } from './gateway-condition.ts'

/**
 * A Gateway's status: `Accepted` (False for `spec.addresses`, which hapedge does not honour, or
 * when no listener is valid; True `ListenersNotValid` when some are not), `Programmed` (a
 * committed generation serves it), and per listener `Accepted`, `Programmed`, `ResolvedRefs`
 * and `Conflicted` with the route kinds it takes and how many routes attached to it.
 * `attached` counts the routes attached per listener (`listenerKey`).
 */
export function gatewayStatus(gateway: Gateway, state: ClusterState, attached: ReadonlyMap<string, number>, at: string): GatewayObjectStatus {
  const listeners = gateway.spec.listeners.map((listener, l) =>
    listenerStatus(listener, listenerProblems(listener, l, gateway, state), attached.get(listenerKey(gateway, listener)) ?? 0, at, state.http2Offered()),
  )
  const valid = listeners.filter((listener) => listener.conditions.every((condition) => condition.type === 'Conflicted' || condition.status === 'True'))
  const invalid = gateway.spec.listeners.length - valid.length
  const addresses = (gateway.spec.addresses?.length ?? 0) > 0
  const accepted = addresses
    ? gatewayCondition(at, 'Accepted', false, 'UnsupportedAddress', UNSUPPORTED_ADDRESSES)
    : valid.length === 0
      ? gatewayCondition(at, 'Accepted', false, 'ListenersNotValid', 'no listener is valid (see status.listeners)')
      : invalid > 0
        ? gatewayCondition(at, 'Accepted', true, 'ListenersNotValid', `${invalid} listener(s) are not valid (see status.listeners); the others are served`)
        : gatewayCondition(at, 'Accepted', true, 'Accepted', 'every listener is served')
  const programmed =
    accepted.status === 'True'
      ? gatewayCondition(at, 'Programmed', true, 'Programmed', "served on the cluster's HTTP and HTTPS binds by the committed generation")
      : gatewayCondition(at, 'Programmed', false, 'Invalid', `not served: ${accepted.message}`)
  const { namespace, name } = gateway.metadata
  return { kind: 'Gateway', namespace, name, status: { conditions: [accepted, programmed], listeners } }
}

export const listenerKey = (gateway: Gateway, listener: Listener) => `${gateway.metadata.namespace}/${gateway.metadata.name}/${listener.name}`

function listenerStatus(listener: Listener, problems: ListenerProblem[], attachedRoutes: number, at: string, http2: boolean): ListenerStatus {
  const of = (condition: ListenerProblem['condition']) => problems.filter((problem) => problem.condition === condition)
  const blocked = (list: ListenerProblem[]) => list.find((problem) => problem.blocking)
  const notes = (list: ListenerProblem[]) => (list.length > 0 ? `; not honoured: ${list.map((problem) => problem.message).join('; ')}` : '')
  const acceptance = of('Accepted')
  const refs = of('ResolvedRefs')
  const refusal = blocked(acceptance)
  const unresolved = blocked(refs)
  const conditions: GatewayCondition[] = [
    refusal
      ? gatewayCondition(at, 'Accepted', false, refusal.reason, acceptance.map((problem) => problem.message).join('; '))
      : gatewayCondition(at, 'Accepted', true, 'Accepted', `the listener is served${notes(acceptance)}`),
    refusal || unresolved
      ? gatewayCondition(at, 'Programmed', false, 'Invalid', `not served: ${(refusal ?? unresolved)!.message}`)
      : gatewayCondition(at, 'Programmed', true, 'Programmed', "served on the cluster's binds"),
    unresolved
      ? gatewayCondition(at, 'ResolvedRefs', false, unresolved.reason, refs.map((problem) => problem.message).join('; '))
      : gatewayCondition(at, 'ResolvedRefs', true, 'ResolvedRefs', `every reference resolves${notes(refs)}`),
    // hapedge serves every listener on the cluster's binds (its port selects parentRefs, not a socket): none conflicts with another.
    gatewayCondition(at, 'Conflicted', false, 'NoConflicts', 'no conflict'),
  ]
  return { name: listener.name, supportedKinds: supportedKinds(listener, http2), attachedRoutes, conditions }
}

/** The route kinds the listener takes: those it allows (all when it names none) that hapedge serves on its protocol (HTTPS's: with or without HTTP/2). */
function supportedKinds(listener: Listener, http2: boolean): { group: string; kind: string }[] {
  const served = routeKindsOf(listener.protocol, http2)
  const allowed = listener.allowedRoutes?.kinds
  const kinds =
    allowed && allowed.length > 0
      ? allowed.filter((kind) => (kind.group ?? GATEWAY_API) === GATEWAY_API && served.includes(kind.kind)).map((kind) => kind.kind)
      : served
  return [...new Set(kinds)].map((kind) => ({ group: GATEWAY_API, kind }))
}

/** A GatewayClass of this cluster's controller: Accepted. */
export function gatewayClassStatus(name: string, controllerName: string, at: string): GatewayObjectStatus {
  return {
    kind: 'GatewayClass',
    name,
    status: { conditions: [gatewayCondition(at, 'Accepted', true, 'Accepted', `served by hapedge (controllerName ${controllerName})`)] },
  }
}
