import type { FeatureName, Features } from '../annotations/features.ts'
import type { Ingress } from '../kube/ingress.ts'
import type { Upstream } from './upstream.ts'

/**
 * NGINX Inc.'s settings per Service of an Ingress, over the Ingress's own: `grpc-services` speak
 * HTTP/2 to the Services named, `ssl-services` TLS (both: gRPC over TLS), `sticky-cookie-services`
 * a cookie each. Services not named keep the Ingress's settings. (`websocket-services` asks for
 * nothing here: HAProxy passes an upgrade on every route.)
 */
export function serviceUpstreams(
  ingress: Ingress,
  features: Features,
  ingressWide: Upstream | undefined,
  warn: (feature: FeatureName, reason: string) => void,
): ReadonlyMap<string, Upstream> | undefined {
  const grpc = new Set(features['grpc-services'] ?? [])
  const tls = new Set(features['ssl-services'] ?? [])
  const sticky = features['sticky-cookie-services'] ?? {}
  const reached = servicesOf(ingress)
  const lists = {
    'grpc-services': grpc,
    'ssl-services': tls,
    'websocket-services': features['websocket-services'] ?? [],
    'sticky-cookie-services': Object.keys(sticky),
  }
  for (const [feature, names] of Object.entries(lists) as [FeatureName, Iterable<string>][])
    for (const name of names) if (!reached.has(name)) warn(feature, `no path of this Ingress reaches a Service named ${name}; nothing to apply it to`)
  const named = new Set([...grpc, ...tls, ...Object.keys(sticky)])
  if (named.size === 0) return undefined
  const services = new Map<string, Upstream>()
  for (const service of [...named].sort()) {
    const upstream: Upstream = { ...ingressWide }
    if (grpc.has(service)) upstream.protocol = tls.has(service) ? 'GRPCS' : 'GRPC'
    else if (tls.has(service)) upstream.protocol = 'HTTPS'
    const cookie = sticky[service]
    if (cookie) upstream.cookie = { ...cookie }
    services.set(service, upstream)
  }
  return services
}

/** The names of the Services an Ingress's paths and default backend reach. */
function servicesOf(ingress: Ingress): Set<string> {
  // Without a named closure, which tsx names by a defineProperty each time it is made (see tellInto).
  const names = [ingress.spec.defaultBackend?.service?.name]
  for (const rule of ingress.spec.rules ?? []) for (const path of rule.http?.paths ?? []) names.push(path.backend.service?.name)
  return new Set(names.filter((name) => name !== undefined))
}
