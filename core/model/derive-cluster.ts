import { asksNothing } from '../annotations/features.ts'
import { describeIssue } from '../issues.ts'
import { describeRef } from '../kube/objects.ts'
import type { Ingress } from '../kube/ingress.ts'
import type { KubeObject } from '../kube/objects.ts'
import { accessGroupOf, type AccessGroup } from './access-group.ts'
import { basicAuthOf } from './basic-auth.ts'
import { caFileOf } from './backend-ca.ts'
import { ingressRefusal } from './ingress-refusal.ts'
import { routesBackends, type RouteBackend } from './route-backends.ts'
import { ServicePorts } from './backend-ref.ts'
import { canaryRulesOfObject } from './canary.ts'
import { snippetRejection } from './backend-snippet.ts'
import type { ClusterState, InvalidObject } from './cluster-state.ts'
import { deriveBackend, PortServers, type Backend } from './derive-backend.ts'
import { deriveDefaultBackend } from './derive-default-backend.ts'
import { deriveHost, type HostConfig } from './derive-host.ts'
import { compareWarnings, ingressAnnotations, type AnnotationWarning } from './ingress-annotations.ts'
import { customHeaderWarnings } from './custom-headers.ts'
import { describeIngress } from './ingress-order.ts'
import { normalizeRejections, type Rejection } from './rejection.ts'
import { readSettings, type Settings } from './settings.ts'
import { resolveTlsSecret } from './tls-secret.ts'
import { type DefaultCertificate, defaultCertificateOf } from './default-certificate.ts'
import { clientCaPem } from './client-cert.ts'
import { headerRulesOfObject } from './header-groups.ts'
import { upstreamOf } from './upstream.ts'
import { gatewayRejection } from './gateway-listeners.ts'
import { routeRejection, type GatewayRoute } from './gateway-verdict.ts'
import { gatewayTlsOf } from './gateway-tls.ts'
import { withHostsOnPorts } from './gateway-ports.ts'

/** What a cluster serves: the input of rendering. */
export interface ClusterModel {
  settings: Settings
  hosts: Map<string, HostConfig>
  backends: Map<string, Backend>
  defaultBackend?: string
  /** The default backend's access group (its Ingress's source ranges). */
  defaultAccess?: string
  /** Certificate files by Secret (`namespace/name`). */
  certificates: Map<string, string>
  /** The settings' default-ssl-certificate (else a Gateway's HTTPS listener without hostname's), when it resolves: served to names no Ingress claims. */
  defaultCertificate?: { secret: string; pem: string }
  /** The served Gateways' HTTPS listener hostnames (`*`: one without), for the misdirected-request check (render-misdirected.ts). */
  tlsListeners: string[]
  /** The CA bundles hosts ask their clients' certificates of, by Secret (client-cert.ts). */
  clientCas: Map<string, string>
  rejections: Rejection[]
  /** Annotations of served Ingresses that hapedge does not honour as written. */
  warnings: AnnotationWarning[]
  /** The source ranges of served Ingresses that ask for them, by group name. */
  accessGroups: Map<string, AccessGroup>
  /** The header rules of served Ingresses that have any, by Ingress (`namespace_name`): the frontend has a rule for each. */
  headerRules: Map<string, string[]>
  /** The CA bundles backends verify their servers with, by file (backend-ca.ts). */
  caFiles: Map<string, string>
  /** The rules of served canary Ingresses, by Ingress (`namespace_name`): the frontend reads the headers and cookies they name (canary.ts). */
  canaryRules: Map<string, string[]>
}

/** The full rebuild: every host and backend derived from the current objects. */
export function deriveCluster(state: ClusterState): ClusterModel {
  // Read once: each is a scan of the whole table.
  const ingresses = state.ingresses()
  const routes = [...state.httpRoutes(), ...state.grpcRoutes()]
  const rejections: Rejection[] = [...objectRejections(state, ingresses, routes)]
  const { settings, rejections: settingRejections, defaultCertificate: fallback, tlsListeners } = deriveSettings(state)
  rejections.push(...settingRejections)

  const hosts = new Map<string, HostConfig>()
  const ingressesOfHosts = state.ingressesOfHosts()
  const servicePorts = new ServicePorts()
  for (const host of withHostsOnPorts(state.hosts(ingressesOfHosts.keys()), state.options)) {
    const derived = deriveHost(host, state, settings, { named: ingressesOfHosts.get(host) ?? [], servicePorts })
    rejections.push(...derived.rejections)
    if (derived.config) hosts.set(host, derived.config)
  }

  const defaultBackend = deriveDefaultBackend(state)
  rejections.push(...defaultBackend.rejections)

  const refs = new Map<string, RouteBackend>()
  for (const config of hosts.values()) routesBackends(config.routes, refs)
  if (defaultBackend.backend && defaultBackend.name)
    refs.set(defaultBackend.name, { name: defaultBackend.name, ref: defaultBackend.backend, upstream: defaultBackend.upstream })
  const backends = new Map<string, Backend>()
  const portServers = new PortServers()
  for (const [name, { ref, upstream }] of refs) backends.set(name, deriveBackend(ref, state, upstream, portServers))
  const caFiles = new Map<string, string>()
  for (const backend of backends.values()) {
    const file = caFileOf(backend.upstream, state)
    if (file) caFiles.set(file.path, file.pem)
  }

  const certificates = new Map<string, string>()
  for (const config of hosts.values()) {
    if (!config.tlsSecret || certificates.has(config.tlsSecret)) continue
    const [namespace = '', name] = config.tlsSecret.split('/')
    const resolved = resolveTlsSecret(state, namespace, name)
    if (resolved.ok) certificates.set(config.tlsSecret, resolved.pem)
  }

  const clientCas = new Map<string, string>()
  for (const { clientCert } of hosts.values()) {
    const pem = clientCert && !clientCas.has(clientCert.ca) ? clientCaPem(clientCert.ca, state) : undefined
    if (pem !== undefined) clientCas.set(clientCert!.ca, pem)
  }

  const withRoutes = [...ingresses, ...routes]
  return {
    settings,
    hosts,
    backends,
    ...('pem' in fallback ? { defaultCertificate: fallback } : {}),
    tlsListeners,
    defaultBackend: defaultBackend.name,
    ...(defaultBackend.access ? { defaultAccess: defaultBackend.access } : {}),
    certificates,
    rejections: normalizeRejections(rejections),
    warnings: ingresses.flatMap((ingress) => warningsOfObject(ingress, state)).sort(compareWarnings),
    accessGroups: new Map(
      ingresses
        .map((ingress) => accessGroupOfObject(ingress, state))
        .filter((group) => group !== undefined)
        .map((group) => [group.name, group]),
    ),
    headerRules: new Map(withRoutes.map((object) => headerRulesOfObject(object, state)).filter((entry) => entry !== undefined)),
    caFiles,
    clientCas,
    canaryRules: new Map(withRoutes.map((object) => canaryRulesOfObject(object, state)).filter((entry) => entry !== undefined)),
  }
}

/** The access group of an object, when it is an Ingress this cluster serves that asks for source ranges. */
export function accessGroupOfObject(object: KubeObject | InvalidObject, state: ClusterState): AccessGroup | undefined {
  if ('issues' in object || object.kind !== 'Ingress' || !state.serves(object)) return undefined
  return accessGroupOf(object, state)
}

/**
 * The cluster's settings, what is wrong with them, the default certificate (the one they name, else
 * a Gateway's HTTPS listener without hostname: gateway-tls.ts) resolved once for both, and the
 * served HTTPS listeners' hostnames.
 */
export function deriveSettings(state: ClusterState): {
  settings: Settings
  rejections: Rejection[]
  defaultCertificate: DefaultCertificate
  tlsListeners: string[]
} {
  const configMap = state.configMap()
  const { settings, issues } = readSettings(configMap?.data)
  const object = `ConfigMap ${state.options.configMap}`
  const gatewayTls = gatewayTlsOf(state, settings['default-ssl-certificate'])
  const defaultCertificate = defaultCertificateOf(settings['default-ssl-certificate'] ?? gatewayTls.catchAll, state)
  const rejections = [...issues.map((issue) => ({ object, reason: `${describeIssue(issue)} (the default is used)` })), ...gatewayTls.rejections]
  return {
    settings,
    rejections: 'rejections' in defaultCertificate ? [...rejections, ...defaultCertificate.rejections] : rejections,
    defaultCertificate,
    tlsListeners: gatewayTls.hostnames,
  }
}

/**
 * Objects that this cluster reports on their own: malformed ones (see rejectionOfInvalid),
 * Services whose snippet is not rendered, and refused Ingresses (their annotations restrict access in a way not honoured).
 * `ingresses` and `routes` (HTTPRoutes, then GRPCRoutes) are the state's, read once by the caller.
 */
export function* objectRejections(state: ClusterState, ingresses: readonly Ingress[], routes: readonly GatewayRoute[]): Iterable<Rejection> {
  for (const object of [...state.invalid(), ...state.services(), ...ingresses, ...state.gateways(), ...routes]) {
    const rejection = rejectionOfObject(object, state)
    if (rejection) yield rejection
  }
}

/** What is wrong with an object on its own, in this cluster, if anything. */
export function rejectionOfObject(object: KubeObject | InvalidObject, state: ClusterState): Rejection | undefined {
  if ('issues' in object) return rejectionOfInvalid(object, state)
  if (object.kind === 'Service') return snippetRejection(object, state.options)
  if (object.kind === 'Gateway') return gatewayRejection(object, state)
  if (object.kind === 'HTTPRoute' || object.kind === 'GRPCRoute') return routeRejection(object, state)
  if (object.kind !== 'Ingress' || !state.serves(object)) return undefined
  const refusal = ingressRefusal(object, state)
  return refusal === undefined ? undefined : { object: describeIngress(object), reason: refusal }
}

/** What an object's annotations ask for that is not honoured: an Ingress's, when this cluster serves it. */
export function warningsOfObject(object: KubeObject | InvalidObject, state: ClusterState): AnnotationWarning[] {
  if ('issues' in object || object.kind !== 'Ingress' || !state.serves(object)) return []
  const { warnings, rendered } = ingressAnnotations(object)
  // Basic authentication, backend settings and custom headers each read a feature: without one, none has more to tell.
  if (asksNothing(rendered)) return warnings
  const auth = basicAuthOf(object, state)
  const more = [...('auth' in auth ? auth.warnings : []), ...upstreamOf(object).warnings, ...customHeaderWarnings(object, state)]
  return more.length > 0 ? [...warnings, ...more].sort(compareWarnings) : warnings
}

/**
 * A malformed object is reported when it matters here: an Ingress only when it asks for this
 * cluster's class, a Secret only through the TLS entries that name it (a cluster holds many TLS
 * Secrets that are not ours), a ConfigMap only when it is the configured one, the rest always.
 */
export function rejectionOfInvalid(invalid: InvalidObject, state: ClusterState): Rejection | undefined {
  const { ref } = invalid
  if (ref.kind === 'Ingress' && !state.servesClass(invalid.requestedClass)) return undefined
  if (ref.kind === 'Secret') return undefined
  if (ref.kind === 'ConfigMap' && `${ref.namespace}/${ref.name}` !== state.options.configMap) return undefined
  return { object: describeRef(ref), reason: invalid.issues.slice(0, 5).map(describeIssue).join('; ') }
}
