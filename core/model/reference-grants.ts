import { GATEWAY_API } from '../kube/gateway-class.ts'
import type { ReferenceGrant } from '../kube/gateway-reference-grant.ts'

/**
 * Whether the ReferenceGrants of a namespace let objects of a Gateway API kind (an HTTPRoute, a
 * Gateway) in another namespace refer to an object of the core group there (a Service, a Secret):
 * a `from` of that kind and namespace, and a `to` of that kind, all of them or that name.
 */
export function grantsReference(
  grants: readonly ReferenceGrant[],
  from: { kind: string; namespace: string },
  to: { kind: 'Service' | 'Secret'; name: string },
): boolean {
  return grants.some(
    (grant) =>
      grant.spec.from.some((f) => f.group === GATEWAY_API && f.kind === from.kind && f.namespace === from.namespace) &&
      grant.spec.to.some((t) => t.group === '' && t.kind === to.kind && (t.name === undefined || t.name === to.name)),
  )
}
