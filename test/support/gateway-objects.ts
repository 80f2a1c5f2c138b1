import { DEFAULT_GATEWAY_CONTROLLER } from '../../core/model/settings.ts'

/** Gateway API objects for tests, as a cluster sends them (gateway.networking.k8s.io). */
const V1 = 'gateway.networking.k8s.io/v1'

export function gatewayClass(name = 'hapedge', controllerName = DEFAULT_GATEWAY_CONTROLLER) {
  return { apiVersion: V1, kind: 'GatewayClass', metadata: { name }, spec: { controllerName } }
}

export interface ListenerSpec {
  name: string
  protocol?: 'HTTP' | 'HTTPS' | string
  port?: number
  hostname?: string
  /** A Secret for HTTPS, of the Gateway's namespace unless `certificateNamespace` says another. */
  certificate?: string
  certificateNamespace?: string
  from?: 'Same' | 'All' | 'Selector'
  /** `allowedRoutes.namespaces.selector`, with `from: Selector`. */
  selector?: unknown
  kinds?: string[]
}

export function gateway(name: string, listeners: ListenerSpec[], { namespace = 'default', className = 'hapedge' } = {}) {
  return {
    apiVersion: V1,
    kind: 'Gateway',
    metadata: { name, namespace },
    spec: {
      gatewayClassName: className,
      listeners: listeners.map(({ name, protocol = 'HTTP', port, hostname, certificate, certificateNamespace, from, selector, kinds }) => ({
        name,
        protocol,
        port: port ?? (protocol === 'HTTPS' ? 443 : 80),
        ...(hostname ? { hostname } : {}),
        ...(certificate
          ? {
              tls: {
                mode: 'Terminate',
                certificateRefs: [{ kind: 'Secret', name: certificate, ...(certificateNamespace ? { namespace: certificateNamespace } : {}) }],
              },
            }
          : {}),
        ...(from || kinds
          ? {
              allowedRoutes: {
                ...(from ? { namespaces: { from, ...(selector ? { selector } : {}) } } : {}),
                ...(kinds ? { kinds: kinds.map((kind) => ({ kind })) } : {}),
              },
            }
          : {}),
      })),
    },
  }
}

/** A Namespace with its labels, as a Selector listener reads them. */
export function namespace(name: string, labels?: Record<string, string>) {
  return { apiVersion: 'v1', kind: 'Namespace', metadata: { name, ...(labels ? { labels } : {}) } }
}

export interface BackendSpec {
  service: string
  port?: number
  weight?: number
  namespace?: string
  /** The backendRef's own filters. */
  filters?: unknown[]
}

export interface RuleSpec {
  matches?: { type?: string; value?: string; headers?: unknown[]; queryParams?: unknown[]; method?: string }[]
  backends: BackendSpec[]
  filters?: unknown[]
  timeouts?: { request?: string; backendRequest?: string }
}

export interface HttpRouteSpec {
  name: string
  namespace?: string
  createdAt?: string
  parents?: { name: string; namespace?: string; sectionName?: string; port?: number }[]
  hostnames?: string[]
  rules: RuleSpec[]
}

export function httpRoute({ name, namespace = 'default', createdAt, parents = [{ name: 'edge' }], hostnames, rules }: HttpRouteSpec) {
  return {
    apiVersion: V1,
    kind: 'HTTPRoute',
    metadata: { name, namespace, ...(createdAt ? { creationTimestamp: createdAt } : {}) },
    spec: {
      parentRefs: parents,
      ...(hostnames ? { hostnames } : {}),
      rules: rules.map(({ matches, backends, filters, timeouts }) => ({
        ...(matches
          ? {
              matches: matches.map(({ type, value, headers, queryParams, method }) => ({
                ...(type || value ? { path: { ...(type ? { type } : {}), ...(value ? { value } : {}) } } : {}),
                ...(headers ? { headers } : {}),
                ...(queryParams ? { queryParams } : {}),
                ...(method ? { method } : {}),
              })),
            }
          : {}),
        ...(filters ? { filters } : {}),
        ...(timeouts ? { timeouts } : {}),
        backendRefs: backendRefsOf(backends),
      })),
    },
  }
}

export interface GrpcRuleSpec {
  matches?: { method?: { type?: string; service?: string; method?: string }; headers?: unknown[] }[]
  backends: BackendSpec[]
  filters?: unknown[]
}

/** A GRPCRoute as an HTTPRoute is written here: its parents (the Gateway `edge` by default), hostnames and rules. */
export function grpcRoute({
  name,
  namespace = 'default',
  createdAt,
  parents = [{ name: 'edge' }],
  hostnames,
  rules,
}: Omit<HttpRouteSpec, 'rules'> & { rules: GrpcRuleSpec[] }) {
  return {
    apiVersion: V1,
    kind: 'GRPCRoute',
    metadata: { name, namespace, ...(createdAt ? { creationTimestamp: createdAt } : {}) },
    spec: {
      parentRefs: parents,
      ...(hostnames ? { hostnames } : {}),
      rules: rules.map(({ matches, backends, filters }) => ({
        ...(matches ? { matches } : {}),
        ...(filters ? { filters } : {}),
        backendRefs: backendRefsOf(backends),
      })),
    },
  }
}

const backendRefsOf = (backends: BackendSpec[]) =>
  backends.map(({ service, port = 80, weight, namespace, filters }) => ({
    name: service,
    port,
    ...(weight !== undefined ? { weight } : {}),
    ...(namespace ? { namespace } : {}),
    ...(filters ? { filters } : {}),
  }))

/**
 * A ReferenceGrant in `namespace` letting HTTPRoutes of `from` send to its Services (all, or the one
 * named), or with `kinds` another pair: Gateways of `from` serving its Secrets.
 */
export function referenceGrant(name: string, namespace: string, from: string, target?: string, kinds = { from: 'HTTPRoute', to: 'Service' }) {
  return {
    apiVersion: 'gateway.networking.k8s.io/v1beta1',
    kind: 'ReferenceGrant',
    metadata: { name, namespace },
    spec: {
      from: [{ group: 'gateway.networking.k8s.io', kind: kinds.from, namespace: from }],
      to: [{ group: '', kind: kinds.to, ...(target ? { name: target } : {}) }],
    },
  }
}

/** The `kinds` of a ReferenceGrant letting Gateways serve Secrets of its namespace. */
export const GATEWAY_TO_SECRET = { from: 'Gateway', to: 'Secret' }

/** Puts a step's objects into what a cluster holds, each in place of the object of the same kind and metadata: what a full rebuild is given after that step. */
export function holdAfter(held: unknown[], step: readonly unknown[]): void {
  const keyOf = (object: unknown) => JSON.stringify([(object as { kind: string }).kind, (object as { metadata: unknown }).metadata])
  for (const object of step) {
    const at = held.findIndex((other) => keyOf(other) === keyOf(object))
    if (at >= 0) held.splice(at, 1)
    held.push(object)
  }
}
