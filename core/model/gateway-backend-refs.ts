import { GATEWAY_API } from '../kube/gateway-class.ts'
import type { ReferenceGrant } from '../kube/gateway-reference-grant.ts'

/** A route's backendRef as both route kinds write it. */
export interface BackendReference {
  group?: string | undefined
  kind?: string | undefined
  name: string
  namespace?: string | undefined
}

/** Why a backendRef does not resolve, as a route parent's `ResolvedRefs` reason names it, and the report's words (without the field path). */
export interface UnresolvedRef {
  reason: 'InvalidKind' | 'RefNotPermitted' | 'BackendNotFound'
  message: string
}

/** Whether the ReferenceGrants of a namespace let routes of one kind in another namespace send to a Service there. */
export function grantsBackend(grants: readonly ReferenceGrant[], fromKind: string, fromNamespace: string, service: string): boolean {
  return grants.some(
    (grant) =>
      grant.spec.from.some((from) => from.group === GATEWAY_API && from.kind === fromKind && from.namespace === fromNamespace) &&
      grant.spec.to.some((to) => to.group === '' && to.kind === 'Service' && (to.name === undefined || to.name === service)),
  )
}

/**
 * Whether a route may send to a backendRef: a Service (the only backend hapedge serves), of the
 * route's namespace or of one whose ReferenceGrant lets the route's kind and namespace send to it.
 * A Service that does not exist resolves: its requests answer 503, and the status says BackendNotFound.
 */
export function backendRefRefusal(
  backend: BackendReference,
  route: { kind: string; namespace: string },
  grantsOf: (namespace: string) => readonly ReferenceGrant[],
): UnresolvedRef | undefined {
  if ((backend.group ?? '') !== '' || (backend.kind ?? 'Service') !== 'Service')
    return { reason: 'InvalidKind', message: `${backend.kind ?? 'Service'} of group "${backend.group ?? ''}" is not a backend hapedge serves (only Services)` }
  const to = backend.namespace ?? route.namespace
  if (to !== route.namespace && !grantsBackend(grantsOf(to), route.kind, route.namespace, backend.name))
    return {
      reason: 'RefNotPermitted',
      message: `no ReferenceGrant in namespace ${to} lets ${route.kind}s of ${route.namespace} send to Service ${backend.name} (RefNotPermitted)`,
    }
  return undefined
}
