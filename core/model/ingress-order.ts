import type { Ingress } from '../kube/ingress.ts'
import { compareText } from '../compare-text.ts'

/** What precedence reads of an object: an Ingress's, or an HTTPRoute's (gateway-host.ts), whose conflicts it decides the same way. */
type Ranked = { metadata: Pick<Ingress['metadata'], 'namespace' | 'name' | 'creationTimestamp'> }

/**
 * Which Ingress wins a conflict: the oldest `creationTimestamp` (compared as instants, whatever
 * the offset or precision), then namespace, then name. An Ingress without a timestamp counts as the newest.
 */
export function compareIngressPrecedence(a: Ranked, b: Ranked): number {
  return createdAt(a) - createdAt(b) || compareText(a.metadata.namespace, b.metadata.namespace) || compareText(a.metadata.name, b.metadata.name)
}

/** The precedence the specification gives routes, the one Ingresses have: the oldest, then namespace/name; kind breaks a tie. */
export function compareRoutePrecedence(a: { kind: string } & Ranked, b: typeof a): number {
  return compareIngressPrecedence(a, b) || compareText(a.kind, b.kind)
}

const creationTimes = new WeakMap<Ranked, number>()

/** Milliseconds since the epoch; objects are immutable, so each timestamp is parsed once. */
function createdAt(ingress: Ranked): number {
  let time = creationTimes.get(ingress)
  if (time === undefined) {
    const stamp = ingress.metadata.creationTimestamp
    time = stamp === undefined ? Number.MAX_SAFE_INTEGER : Date.parse(stamp)
    creationTimes.set(ingress, time)
  }
  return time
}

export function describeIngress(ingress: Ingress): string {
  return `Ingress ${ingress.metadata.namespace}/${ingress.metadata.name}`
}
