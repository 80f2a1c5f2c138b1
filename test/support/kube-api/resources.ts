/** One kind the double serves, as API discovery describes it. */
export interface ResourceType {
  group: string
  version: string
  kind: string
  plural: string
  namespaced: boolean
  /** Built-in kinds come back from a LIST without `apiVersion`/`kind` on each item, as the real server serialises them; custom resources keep both. */
  builtIn: boolean
  /** Whether `/status` is a subresource (a write to the main resource then leaves `.status` alone). */
  status: boolean
}

const builtIn = (group: string, version: string, kind: string, plural: string, namespaced = true, status = false): ResourceType => ({
  group,
  version,
  kind,
  plural,
  namespaced,
  builtIn: true,
  status,
})

export const BUILT_IN_RESOURCES: ResourceType[] = [
  builtIn('', 'v1', 'Namespace', 'namespaces', false, true),
  builtIn('', 'v1', 'Service', 'services', true, true),
  builtIn('', 'v1', 'Secret', 'secrets'),
  builtIn('', 'v1', 'ConfigMap', 'configmaps'),
  builtIn('', 'v1', 'Pod', 'pods', true, true),
  builtIn('', 'v1', 'Event', 'events'),
  builtIn('networking.k8s.io', 'v1', 'Ingress', 'ingresses', true, true),
  builtIn('networking.k8s.io', 'v1', 'IngressClass', 'ingressclasses', false),
  builtIn('discovery.k8s.io', 'v1', 'EndpointSlice', 'endpointslices'),
  builtIn('events.k8s.io', 'v1', 'Event', 'events'),
  builtIn('coordination.k8s.io', 'v1', 'Lease', 'leases'),
  builtIn('apiextensions.k8s.io', 'v1', 'CustomResourceDefinition', 'customresourcedefinitions', false, true),
  { group: 'hapedge.io', version: 'v1alpha1', kind: 'HAProxyCfg', plural: 'haproxycfgs', namespaced: true, builtIn: false, status: true },
]

/** `networking.k8s.io/v1` or `v1`. */
export const apiVersionOf = (type: Pick<ResourceType, 'group' | 'version'>): string => (type.group ? `${type.group}/${type.version}` : type.version)

/** `Ingress` → `ingresses`, `HAProxyCfg` → `haproxycfgs`, `Policy` → `policies`: the plural a CRD would most likely declare. */
export function guessPlural(kind: string): string {
  const lower = kind.toLowerCase()
  if (/(s|x|ch|sh)$/.test(lower)) return `${lower}es`
  if (/[^aeiou]y$/.test(lower)) return `${lower.slice(0, -1)}ies`
  return `${lower}s`
}

/** Where a request points: the resource type's group, version and plural, and optionally a namespace, a name and a subresource. */
export interface ResourcePath {
  group: string
  version: string
  plural: string
  namespace?: string
  name?: string
  subresource?: string
}

/** Parses `/api/v1/...` and `/apis/{group}/{version}/...`; `namespaces/{ns}/{plural}` scopes to a namespace. Undefined for discovery paths and anything else. */
export function parseResourcePath(pathname: string): ResourcePath | undefined {
  const parts = pathname.split('/').filter(Boolean).map(decodeURIComponent)
  let rest: string[]
  let group = ''
  let version: string
  if (parts[0] === 'api' && parts.length >= 3) [version, rest] = [parts[1]!, parts.slice(2)]
  else if (parts[0] === 'apis' && parts.length >= 4) [group, version, rest] = [parts[1]!, parts[2]!, parts.slice(3)]
  else return undefined
  if (rest[0] === 'namespaces' && rest.length >= 3) {
    const [, namespace, plural, name, subresource] = rest
    return rest.length > 5 ? undefined : { group, version, plural: plural!, namespace, name, subresource }
  }
  const [plural, name, subresource] = rest
  return rest.length > 3 ? undefined : { group, version, plural: plural!, name, subresource }
}

const gatewayApi = (version: string, kind: string, plural: string, namespaced = true, status = true): ResourceType => ({
  group: 'gateway.networking.k8s.io',
  version,
  kind,
  plural,
  namespaced,
  builtIn: false,
  status,
})

/** The Gateway API's kinds, for a double of a cluster whose CRDs are installed (absent otherwise: their lists answer 404). */
export const GATEWAY_API_RESOURCES: ResourceType[] = [
  gatewayApi('v1', 'GatewayClass', 'gatewayclasses', false),
  gatewayApi('v1', 'Gateway', 'gateways'),
  gatewayApi('v1', 'HTTPRoute', 'httproutes'),
  gatewayApi('v1', 'GRPCRoute', 'grpcroutes'),
  gatewayApi('v1beta1', 'ReferenceGrant', 'referencegrants', true, false),
]
