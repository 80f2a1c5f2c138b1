import type { Attached, Attachment, ParentOutcome } from './gateway-attachment.ts'
import type { GatewayRoute } from './gateway-verdict.ts'
import { compareIngressPrecedence } from './ingress-order.ts'
import { compareText } from './routes.ts'

/** The precedence the specification gives routes, the one Ingresses have: the oldest, then namespace/name; kind breaks a tie. */
export function compareRoutePrecedence(a: { kind: string } & Parameters<typeof compareIngressPrecedence>[0], b: typeof a): number {
  return compareIngressPrecedence(a, b) || compareText(a.kind, b.kind)
}

/** What the rule reads: the routes of a kind indexed under a host, and where a route attaches (before this rule). */
export interface KindConflictLookup {
  routesOfKindForHost(kind: GatewayRoute['kind'], host: string): GatewayRoute[]
  attachmentsOf(route: GatewayRoute): Attachment[]
}

/** An HTTPRoute's rival kind on a listener, and a GRPCRoute's. */
export const OTHER_KIND = { HTTPRoute: 'GRPCRoute', GRPCRoute: 'HTTPRoute' } as const

/**
 * The GRPCRoute specification's rule (`spec.hostnames`) for an HTTPRoute and a GRPCRoute attached
 * to one listener with a hostname in common: exactly one is accepted, the oldest, then the first by
 * namespace/name. The other loses that listener; a parentRef left attached nowhere is refused
 * `Accepted` False `Conflicted` (the specification names no reason). Hostnames in common are equal
 * names as the hosts index holds them: a wildcard and a name under it are not compared.
 */
export function withoutKindConflicts(route: GatewayRoute, attached: Attached, lookup: KindConflictLookup): Attached {
  if (attached.attachments.length === 0) return attached
  const reasons = [...attached.reasons]
  const parents = attached.parents.map((parent): ParentOutcome => {
    const lost: string[] = []
    const kept = parent.attachments.filter((attachment) => {
      const winner = olderOfOtherKind(route, attachment, lookup)
      if (winner) lost.push(`listener "${attachment.listener.name}": ${winner}`)
      return !winner
    })
    if (lost.length === 0) return parent
    const message = `not attached to Gateway ${parent.gateway.metadata.namespace}/${parent.gateway.metadata.name} there: ${lost.join('; ')} (Conflicted)`
    reasons.push(`spec.parentRefs[${parent.index}]: ${message}`)
    return { ...parent, attachments: kept, ...(kept.length === 0 && !parent.refusal ? { refusal: { reason: 'Conflicted', message } } : {}) }
  })
  return { ...attached, reasons, parents, attachments: parents.flatMap((parent) => parent.attachments) }
}

/** The route of the other kind, older, attached to the same listener with a host in common, described; undefined when none is. */
function olderOfOtherKind(route: GatewayRoute, { gateway, listener, hosts }: Attachment, lookup: KindConflictLookup): string | undefined {
  for (const host of hosts)
    for (const other of lookup.routesOfKindForHost(OTHER_KIND[route.kind], host)) {
      if (compareRoutePrecedence(other, route) >= 0) continue
      const there = lookup
        .attachmentsOf(other)
        .some((theirs) => sameGateway(theirs.gateway, gateway) && theirs.listener.name === listener.name && theirs.hosts.includes(host))
      if (there)
        return `${other.kind} ${other.metadata.namespace}/${other.metadata.name}, first (the older, then by namespace/name), is attached there on host "${host || '*'}"`
    }
  return undefined
}

/** By namespace and name: a Gateway read twice from a stored snapshot is not the same object. */
const sameGateway = (a: Attachment['gateway'], b: Attachment['gateway']) => a.metadata.namespace === b.metadata.namespace && a.metadata.name === b.metadata.name
