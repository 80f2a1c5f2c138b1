import type { Ingress } from '../kube/ingress.ts'
import { compareText } from './routes.ts'

/**
 * Which Ingress wins a conflict: the oldest `creationTimestamp` (RFC 3339 UTC strings order as
 * text), then namespace, then name. An Ingress without a timestamp counts as the newest.
 */
export function compareIngressPrecedence(a: Ingress, b: Ingress): number {
  const at = a.metadata.creationTimestamp
  const bt = b.metadata.creationTimestamp
  if (at !== bt) {
    if (at === undefined) return 1
    if (bt === undefined) return -1
    const byTime = compareText(new Date(at).toISOString(), new Date(bt).toISOString())
    if (byTime) return byTime
  }
  return compareText(a.metadata.namespace, b.metadata.namespace) || compareText(a.metadata.name, b.metadata.name)
}

export function describeIngress(ingress: Ingress): string {
  return `Ingress ${ingress.metadata.namespace}/${ingress.metadata.name}`
}
