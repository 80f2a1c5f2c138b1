/**
 * Builders for the Kubernetes objects hapedge reads, shaped exactly as the API server returns
 * them (apiVersion, kind, metadata, spec). Tests state only what matters to them.
 */

export type PathType = 'Exact' | 'Prefix' | 'ImplementationSpecific'

export interface PathSpec {
  path?: string
  pathType?: PathType
  service: string
  port?: number | string
}

export interface RuleSpec {
  host?: string
  paths: PathSpec[]
}

export interface IngressSpec {
  name: string
  namespace?: string
  className?: string | null
  classAnnotation?: string
  createdAt?: string
  annotations?: Record<string, string>
  rules?: RuleSpec[]
  defaultBackend?: { service: string; port?: number | string }
  tls?: { hosts: string[]; secretName?: string }[]
}

const port = (value: number | string = 80) => (typeof value === 'number' ? { number: value } : { name: value })

export function ingress(spec: IngressSpec) {
  const annotations = { ...spec.annotations, ...(spec.classAnnotation ? { 'kubernetes.io/ingress.class': spec.classAnnotation } : {}) }
  return {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'Ingress',
    metadata: {
      name: spec.name,
      namespace: spec.namespace ?? 'default',
      creationTimestamp: spec.createdAt ?? '2024-01-01T00:00:00Z',
      ...(Object.keys(annotations).length ? { annotations } : {}),
    },
    spec: {
      ...(spec.className === null ? {} : { ingressClassName: spec.className ?? 'hapedge' }),
      ...(spec.defaultBackend ? { defaultBackend: { service: { name: spec.defaultBackend.service, port: port(spec.defaultBackend.port) } } } : {}),
      ...(spec.tls ? { tls: spec.tls } : {}),
      rules: (spec.rules ?? []).map((rule) => ({
        ...(rule.host === undefined ? {} : { host: rule.host }),
        http: {
          paths: rule.paths.map((path) => ({
            path: path.path ?? '/',
            pathType: path.pathType ?? 'Prefix',
            backend: { service: { name: path.service, port: port(path.port) } },
          })),
        },
      })),
    },
  }
}

export function service(name: string, ports: { port: number; name?: string }[] = [{ port: 80 }], namespace = 'default', annotations?: Record<string, string>) {
  return { apiVersion: 'v1', kind: 'Service', metadata: { name, namespace, ...(annotations ? { annotations } : {}) }, spec: { type: 'ClusterIP', ports } }
}

export interface EndpointSpec {
  address: string
  ready?: boolean | null
  serving?: boolean
  terminating?: boolean
}

export function endpointSlice(
  service: string,
  endpoints: (string | EndpointSpec)[],
  ports: { port: number; name?: string }[] = [{ port: 8080 }],
  options: { name?: string; namespace?: string; addressType?: 'IPv4' | 'IPv6' } = {},
) {
  return {
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata: {
      name: options.name ?? `${service}-abcde`,
      namespace: options.namespace ?? 'default',
      labels: { 'kubernetes.io/service-name': service },
    },
    addressType: options.addressType ?? 'IPv4',
    endpoints: endpoints.map((endpoint) => {
      const spec = typeof endpoint === 'string' ? { address: endpoint } : endpoint
      const conditions = Object.fromEntries(
        Object.entries({ ready: spec.ready, serving: spec.serving, terminating: spec.terminating }).filter(([, value]) => value !== undefined),
      )
      return { addresses: [spec.address], conditions }
    }),
    ports: ports.map((entry) => ({ name: entry.name ?? '', port: entry.port, protocol: 'TCP' })),
  }
}

export function ingressClass(name: string, isDefault = false) {
  return {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'IngressClass',
    metadata: { name, ...(isDefault ? { annotations: { 'ingressclass.kubernetes.io/is-default-class': 'true' } } : {}) },
    spec: { controller: 'hapedge.io/ingress-controller' },
  }
}

export function tlsSecret(name: string, certPem: string, keyPem: string, namespace = 'default') {
  const base64 = (text: string) => Buffer.from(text).toString('base64')
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    type: 'kubernetes.io/tls',
    metadata: { name, namespace },
    data: { 'tls.crt': base64(certPem), 'tls.key': base64(keyPem) },
  }
}

/** A Secret of users for basic authentication: `data` in clear text, base64-encoded here. */
export function authSecret(name: string, data: Record<string, string>, type = 'Opaque', namespace = 'default') {
  const base64 = (text: string) => Buffer.from(text).toString('base64')
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    type,
    metadata: { name, namespace },
    data: Object.fromEntries(Object.entries(data).map(([key, value]) => [key, base64(value)])),
  }
}

export function configMap(data: Record<string, string>, name = 'hapedge', namespace = 'hapedge') {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace }, data }
}
