import type { ReferenceGrant } from '../kube/gateway-reference-grant.ts'
import type { RequestMirrorFilter } from '../kube/gateway-http-filter.ts'
import { grantsReference } from './reference-grants.ts'

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

/** What resolving a route's backendRefs reads of the cluster (ClusterState gives it). */
export interface BackendLookup {
  referenceGrants(namespace: string): readonly ReferenceGrant[]
  /** The Service, when it exists. */
  service(namespace: string, name: string): object | undefined
}

/**
 * Why a backendRef does not resolve, if it does not: hapedge serves Services only, of the route's
 * namespace or of one whose ReferenceGrant lets the route's kind and namespace send to it, and the
 * Service must exist. The specification answers 500 for the requests a rule would send to it
 * (gateway-route-rules.ts), and the route parent's ResolvedRefs names the first reason.
 */
export function unresolvedBackendRef(backend: BackendReference, route: { kind: string; namespace: string }, cluster: BackendLookup): UnresolvedRef | undefined {
  if ((backend.group ?? '') !== '' || (backend.kind ?? 'Service') !== 'Service')
    return { reason: 'InvalidKind', message: `${backend.kind ?? 'Service'} of group "${backend.group ?? ''}" is not a backend hapedge serves (only Services)` }
  const to = backend.namespace ?? route.namespace
  if (to !== route.namespace && !grantsReference(cluster.referenceGrants(to), route, { kind: 'Service', name: backend.name }))
    return {
      reason: 'RefNotPermitted',
      message: `no ReferenceGrant in namespace ${to} lets ${route.kind}s of ${route.namespace} send to Service ${backend.name} (RefNotPermitted)`,
    }
  if (!cluster.service(to, backend.name)) return { reason: 'BackendNotFound', message: `Service ${to}/${backend.name} does not exist (BackendNotFound)` }
  return undefined
}

/** The Services (`namespace/name`) a route's backendRefs and RequestMirror filters name, resolved or not: their coming or going changes what it answers. */
export function servicesOfRoute(route: {
  metadata: { namespace: string }
  spec: { rules?: { backendRefs?: BackendReference[]; filters?: readonly unknown[] }[] }
}): Set<string> {
  const services = new Set<string>()
  const refs = [...(route.spec.rules ?? []).flatMap((rule) => rule.backendRefs ?? []), ...mirrorBackendRefs(route.spec.rules).map(({ ref }) => ref)]
  for (const ref of refs)
    if ((ref.group ?? '') === '' && (ref.kind ?? 'Service') === 'Service') services.add(`${ref.namespace ?? route.metadata.namespace}/${ref.name}`)
  return services
}

/** The RequestMirror backendRefs of a route's rules, with their field paths, as written (resolved or not): its status and Service index read them. */
export function mirrorBackendRefs(rules: readonly { filters?: readonly unknown[] }[] | undefined): { at: string; ref: RequestMirrorFilter['backendRef'] }[] {
  return (rules ?? []).flatMap((rule, r) =>
    (rule.filters ?? []).flatMap((filter, f) => {
      const mirror = filter as { type?: unknown; requestMirror?: { backendRef?: RequestMirrorFilter['backendRef'] } } | null
      const ref = mirror?.type === 'RequestMirror' ? mirror.requestMirror?.backendRef : undefined
      return typeof ref?.name === 'string' ? [{ at: `spec.rules[${r}].filters[${f}].requestMirror.backendRef`, ref }] : []
    }),
  )
}
