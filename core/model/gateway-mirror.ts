import type { RequestMirrorFilter } from '../kube/gateway-http-filter.ts'
import { backendName } from './backend-ref.ts'
import { unresolvedBackendRef, type BackendLookup } from './gateway-backend-refs.ts'
import type { RouteMirror } from './route-mirror.ts'

/** Where a RequestMirror's backendRef is resolved: the route's kind and namespace, the cluster, and where what does not resolve is reported. */
export interface MirrorResolution {
  route: { kind: string; namespace: string }
  cluster: BackendLookup
  /** The backendRefs that do not resolve (the route parent's ResolvedRefs): nothing is mirrored to them, and the route is served. */
  unresolved: string[]
}

/**
 * A RequestMirror filter as the share of requests copied to its Service, or undefined when it
 * copies none: what it asks that hapedge cannot honour is in `reasons` (the route is not served),
 * and a backendRef that does not resolve in `unresolved`, as the specification says (it is dropped,
 * ResolvedRefs False, and the route served without it). `percent` and `fraction` (experimental)
 * are honoured; without either every request is copied.
 */
export function readRequestMirror(
  mirror: RequestMirrorFilter | undefined,
  where: string,
  resolution: MirrorResolution,
  reasons: string[],
): RouteMirror | undefined {
  if (!mirror) return void reasons.push(`${where}: is required for a filter of type RequestMirror`)
  const { backendRef: ref, percent, fraction } = mirror
  if (percent !== undefined && fraction !== undefined) return void reasons.push(`${where}: percent and fraction both given; the specification allows one`)
  const share =
    percent !== undefined
      ? { numerator: percent, denominator: 100 }
      : { numerator: fraction?.numerator ?? 1, denominator: fraction?.denominator ?? (fraction ? 100 : 1) }
  if (share.numerator > share.denominator) return void reasons.push(`${where}.fraction: the numerator must not exceed the denominator`)
  const refusal = unresolvedBackendRef(ref, resolution.route, resolution.cluster)
  if (refusal?.reason === 'InvalidKind') return void resolution.unresolved.push(`${where}.backendRef: ${refusal.message}; nothing is mirrored to it`)
  if (ref.port === undefined) return void reasons.push(`${where}.backendRef.port: is required for a Service`)
  if (refusal) return void resolution.unresolved.push(`${where}.backendRef: ${refusal.message}; nothing is mirrored to it`)
  const backend = { namespace: ref.namespace ?? resolution.route.namespace, service: ref.name, port: ref.port }
  return { backend, backendName: backendName(backend), ...share }
}
