import { GATEWAY_API } from '../kube/gateway-class.ts'
import type { Gateway, Listener } from '../kube/gateway.ts'
import type { GatewayRoute } from './gateway-verdict.ts'
import type { Namespace } from '../kube/namespace.ts'
import { namespaceRefusal } from './gateway-namespaces.ts'

/** What attaching reads of the cluster: a Gateway by namespace and name, and whether this cluster serves a GatewayClass. */
export interface GatewayLookup {
  gateway(namespace: string, name: string): Gateway | undefined
  /** Absent: every class counts (the hosts index, which the settings must not change). */
  servesClass?(name: string): boolean
  /** Why a listener's port is not served (gateway-ports.ts); absent: every port counts (the hosts index, which the binds must not change). */
  portRefusal?(listener: Listener): string | undefined
  /** A Namespace by name, whose labels a `Selector` listener reads. Absent: a Selector admits every namespace (the hosts index, which Namespace labels must not change). */
  namespace?(name: string): Namespace | undefined
  /** Why a listener does not take routes of a kind it lists (gateway-listeners.ts kindRefusal); absent: every kind listed counts (the hosts index, which the settings must not change). */
  kindRefusal?(listener: Listener, kind: GatewayRoute['kind']): string | undefined
}

/** A listener an HTTPRoute attaches to, and the hosts it is served on there (the listener's hostname and the route's, intersected). */
export interface Attachment {
  gateway: Gateway
  listener: Listener
  hosts: string[]
}

/** Why a parentRef attaches nowhere, as the specification's `Accepted` reasons name it. */
export type ParentRefusal = 'NoMatchingParent' | 'NotAllowedByListeners' | 'NoMatchingListenerHostname'

/** One parentRef of this cluster's (it names a Gateway of a class this cluster serves), and what came of it: the route's status entry. */
export interface ParentOutcome {
  /** Its index in `spec.parentRefs`. */
  index: number
  gateway: Gateway
  attachments: Attachment[]
  /** Set when it attaches nowhere: why, and the report's words. */
  refusal?: { reason: ParentRefusal; message: string }
}

export interface Attached {
  attachments: Attachment[]
  /** Why a parent of this cluster's is not attached, with its field path; nothing for parents of other controllers. */
  reasons: string[]
  /** Whether any parentRef names a Gateway this cluster serves (only then is the route this cluster's to report). */
  ours: boolean
  /** Each parentRef of this cluster's, in order (a route's `status.parents` entries). */
  parents: ParentOutcome[]
}

const SERVED_PROTOCOLS = new Set(['HTTP', 'HTTPS'])

export const gatewayKey = (namespace: string, name: string) => `${namespace}/${name}`

/** The Gateways (`namespace/name`) a route's parentRefs name: the index that re-derives a route when its Gateway changes. */
export function parentGatewaysOf(route: GatewayRoute): Set<string> {
  const gateways = new Set<string>()
  for (const parent of route.spec.parentRefs ?? [])
    if (isGatewayParent(parent)) gateways.add(gatewayKey(parent.namespace ?? route.metadata.namespace, parent.name))
  return gateways
}

const isGatewayParent = (parent: { group?: string; kind?: string }) => (parent.group ?? GATEWAY_API) === GATEWAY_API && (parent.kind ?? 'Gateway') === 'Gateway'

/**
 * The listeners an HTTPRoute attaches to, as the specification says: the Gateway its parentRef
 * names (of a class this cluster serves), the listener its sectionName and port name (all when
 * absent), an HTTP or HTTPS one whose allowedRoutes admit the route's namespace and kind, and
 * whose hostname leaves some of the route's hostnames.
 */
export function attachmentsOf(route: GatewayRoute, lookup: GatewayLookup): Attached {
  const attachments: Attachment[] = []
  const reasons: string[] = []
  const parents: ParentOutcome[] = []
  route.spec.parentRefs?.forEach((parent, p) => {
    const at = `spec.parentRefs[${p}]`
    if (!isGatewayParent(parent)) return
    const namespace = parent.namespace ?? route.metadata.namespace
    const gateway = lookup.gateway(namespace, parent.name)
    if (!gateway) {
      reasons.push(`${at}: Gateway ${namespace}/${parent.name} does not exist (or is malformed): not attached`)
      return
    }
    if (lookup.servesClass && !lookup.servesClass(gateway.spec.gatewayClassName)) return
    const outcome: ParentOutcome = { index: p, gateway, attachments: [] }
    parents.push(outcome)
    const refuse = (reason: ParentRefusal, message: string) => {
      outcome.refusal = { reason, message }
      reasons.push(`${at}: ${message}`)
    }
    const named = gateway.spec.listeners.filter(
      (listener) => (parent.sectionName === undefined || listener.name === parent.sectionName) && (parent.port === undefined || listener.port === parent.port),
    )
    if (named.length === 0) {
      const which = [parent.sectionName !== undefined && `sectionName "${parent.sectionName}"`, parent.port !== undefined && `port ${parent.port}`].filter(
        Boolean,
      )
      return refuse('NoMatchingParent', `Gateway ${namespace}/${parent.name} has no listener of ${which.join(' and ')}: not attached (NoMatchingParent)`)
    }
    const why: string[] = []
    let hostnames = false
    for (const listener of named) {
      const refusal = listenerRefusal(listener, gateway, route, lookup) ?? lookup.portRefusal?.(listener) ?? lookup.kindRefusal?.(listener, route.kind)
      if (refusal) {
        why.push(`listener "${listener.name}": ${refusal}`)
        continue
      }
      const hosts = intersectHostnames(listener.hostname, route.spec.hostnames)
      hostnames = true
      if (hosts.length === 0)
        why.push(`listener "${listener.name}": no hostname of the route matches its hostname "${listener.hostname}" (NoMatchingListenerHostname)`)
      else outcome.attachments.push({ gateway, listener, hosts })
    }
    attachments.push(...outcome.attachments)
    // Reported only when the parent attaches nowhere: the other listeners it names not taking the route is no fault of the route.
    if (why.length > 0 && outcome.attachments.length === 0)
      refuse(hostnames ? 'NoMatchingListenerHostname' : 'NotAllowedByListeners', `not attached to Gateway ${namespace}/${parent.name}: ${why.join('; ')}`)
  })
  return { attachments, reasons, ours: parents.length > 0, parents }
}

/** Why a listener does not take this route, if it does not: its protocol, the route's namespace or kind. */
function listenerRefusal(listener: Listener, gateway: Gateway, route: GatewayRoute, lookup: GatewayLookup): string | undefined {
  if (!SERVED_PROTOCOLS.has(listener.protocol)) return `protocol ${listener.protocol} is not served by hapedge (HTTP and HTTPS are)`
  const namespace = namespaceRefusal(listener, gateway, route.metadata.namespace, lookup.namespace)
  if (namespace) return namespace
  const kinds = listener.allowedRoutes?.kinds
  if (kinds && kinds.length > 0 && !kinds.some((kind) => (kind.group ?? GATEWAY_API) === GATEWAY_API && kind.kind === route.kind))
    return `allowedRoutes.kinds does not list ${route.kind} (NotAllowedByListeners)`
  return undefined
}

/**
 * The hosts a route is served on through a listener: the route's hostnames that the listener's
 * admits (a wildcard matching a name or a more specific wildcard), the listener's when the route
 * names none, and `''` (every host, as rules without a host) when neither does.
 */
export function intersectHostnames(listener: string | undefined, route: readonly string[] | undefined): string[] {
  if (!route || route.length === 0) return [listener ?? '']
  if (listener === undefined) return [...new Set(route)]
  const hosts = new Set<string>()
  for (const name of route) {
    if (name === listener || (listener.startsWith('*.') && name.endsWith(listener.slice(1)))) hosts.add(name)
    else if (name.startsWith('*.') && listener.endsWith(name.slice(1))) hosts.add(listener)
  }
  return [...hosts]
}

/** The hosts a route (HTTPRoute, GRPCRoute) is indexed under: those of every listener it would attach to, whatever the class (which the settings decide). */
export function indexedHostsOf(route: GatewayRoute, gateway: GatewayLookup['gateway']): Set<string> {
  const hosts = new Set<string>()
  for (const attachment of attachmentsOf(route, { gateway }).attachments) for (const host of attachment.hosts) hosts.add(host)
  return hosts
}
