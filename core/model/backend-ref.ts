import { sha256Text } from '../hash.ts'
import type { IngressBackend } from '../kube/ingress.ts'
import type { Upstream } from './upstream.ts'

/** One Service port as an Ingress names it: by number or by name. */
export interface BackendRef {
  namespace: string
  service: string
  port: number | string
}

export function backendRef(namespace: string, backend: IngressBackend): BackendRef | undefined {
  const service = backend.service
  if (!service) return undefined
  return { namespace, service: service.name, port: service.port.number ?? service.port.name! }
}

/**
 * One BackendRef and backend name per Service port, for a full rebuild's routes: 64,000 routes at
 * 20,000 Ingresses name about 10,000, and each object a rebuild keeps is copied twice by scavenges.
 * A shared name also keeps its hash, so every later lookup by it is cheap.
 */
export class ServicePorts {
  private readonly known = new Map<string, { ref: BackendRef; name: string }>()

  /** The Service port an Ingress path names, as `backendRef` and `backendName` give it, shared with every route that names it. */
  of(namespace: string, backend: IngressBackend): { ref: BackendRef; name: string } | undefined {
    const ref = backendRef(namespace, backend)
    if (!ref) return undefined
    const name = backendName(ref)
    let known = this.known.get(name)
    if (!known) this.known.set(name, (known = { ref, name }))
    return known
  }
}

/** Where a refused Ingress's routes point (fail closed): the frontend answers 503 with the reason header there. */
export const REFUSED_BACKEND = 'hapedge-refused'

/** Where an HTTPRoute rule's backendRefs that do not resolve (InvalidKind, RefNotPermitted, BackendNotFound) point, alone or as a split's place: the specification answers 500 there. */
export const UNRESOLVED_BACKEND = 'hapedge-unresolved'

/** Where an HTTPRoute or GRPCRoute rule whose backendRefs all have weight 0 points: it sends to none, and the specification answers 500 there. */
export const WEIGHTLESS_BACKEND = 'hapedge-weightless'

/** Where the routes of an Ingress that redirects point (temporal-redirect, permanent-redirect): the redirect is answered there. */
export const REDIRECT_BACKEND = 'hapedge-redirect'

/**
 * `shop_web_80`, the HAProxy backend name. Namespaces and Service names are DNS labels, which
 * never hold `_`, so the name is unique and cannot collide with hapedge's own `hapedge-*` names.
 */
export function backendName(ref: BackendRef): string {
  return `${ref.namespace}_${ref.service}_${ref.port}`
}

/**
 * The backend of a Service port for routes whose Ingress sets backend settings (upstream.ts):
 * `shop_web_80_<12 hex digits of the settings>`, one per distinct settings, so two Ingresses that
 * name one Service differently each get theirs; the Service's own name for the default settings.
 */
export function backendVariantName(ref: BackendRef, upstream: Upstream | undefined): string {
  return upstream ? `${backendName(ref)}_${sha256Text(JSON.stringify(upstream)).slice(0, 12)}` : backendName(ref)
}

/** The Service (`namespace/name`) behind a backend name (a Service port's or one of its variants), or undefined for hapedge's own backends. */
export function serviceOfBackend(name: string): string | undefined {
  const end = serviceEnd(name)
  return end < 0 ? undefined : name.slice(0, end).replace('_', '/')
}

/** Whether a route's backend is a Service's, which it uses: not one of hapedge's own (refused, redirect). */
export function usesService(route: { backendName: string }): boolean {
  return serviceEnd(route.backendName) >= 0
}

/**
 * Where the Service's name ends in a backend name of three or four `_`-separated words
 * (`ns_svc_port`, `ns_svc_port_variant`), or -1 for any other (hapedge's own): found by
 * position, as every route of a full rebuild asks it.
 */
function serviceEnd(name: string): number {
  const first = name.indexOf('_')
  const second = first < 0 ? -1 : name.indexOf('_', first + 1)
  if (second < 0) return -1
  const third = name.indexOf('_', second + 1)
  return third >= 0 && name.indexOf('_', third + 1) >= 0 ? -1 : second
}
