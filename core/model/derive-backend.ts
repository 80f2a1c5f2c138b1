import type { EndpointSlice } from '../kube/endpoint-slice.ts'
import type { Service } from '../kube/service.ts'
import { backendVariantName, type BackendRef } from './backend-ref.ts'
import { backendSnippet } from './backend-snippet.ts'
import type { ClusterState } from './cluster-state.ts'
import { compareText } from '../compare-text.ts'
import type { Upstream } from './upstream.ts'
import { sortFew } from '../sort-few.ts'

export interface Server {
  address: string
  port: number
  family: 'IPv4' | 'IPv6'
}

export interface Backend {
  name: string
  ref: BackendRef
  /** Ready endpoints in a stable order; empty when the Service, its port or ready endpoints are missing (HAProxy answers 503). */
  servers: Server[]
  /** The Service's configuration snippet, line by line, when the cluster allows snippets and it is safe (see checkSnippet). */
  snippet?: string[]
  /** The backend settings of the Ingresses routing here (upstream.ts); the defaults when absent. */
  upstream?: Upstream
}

/**
 * The ready servers of each Service port, read once for all the backends a full rebuild derives:
 * the backends of one port (named by number and by name, and each variant of backend settings)
 * share one list, which nothing changes once made.
 */
export class PortServers {
  private readonly known = new Map<string, Server[]>()

  of(state: ClusterState, namespace: string, service: string, portName: string): Server[] {
    const key = `${namespace}/${service}/${portName}`
    let servers = this.known.get(key)
    if (!servers) this.known.set(key, (servers = readyServers(state.endpointSlices(namespace, service), portName)))
    return servers
  }
}

export function deriveBackend(ref: BackendRef, state: ClusterState, upstream?: Upstream, portServers = new PortServers()): Backend {
  const service = state.service(ref.namespace, ref.service)
  const port = service && findServicePort(service, ref.port)
  const servers = !port
    ? []
    : ((upstream?.serviceUpstream && clusterIpServer(service, port.port)) ?? portServers.of(state, ref.namespace, ref.service, port.name ?? ''))
  const snippet = backendSnippet(service, state.options)
  const backend: Backend = { name: backendVariantName(ref, upstream), ref, servers, ...(snippet.length > 0 ? { snippet } : {}) }
  if (upstream) backend.upstream = upstream
  return backend
}

/**
 * service-upstream: the Service's ClusterIP and port, one server, which kube-proxy balances; a
 * headless Service (no ClusterIP) is served from its endpoints as without the annotation.
 */
function clusterIpServer(service: Service, port: number): Server[] | undefined {
  const address = service.spec.clusterIP
  if (!address || address === 'None') return undefined
  return [{ address, port, family: address.includes(':') ? 'IPv6' : 'IPv4' }]
}

function findServicePort(service: Service, port: number | string) {
  if (service.spec.type === 'ExternalName') return undefined
  return service.spec.ports?.find((candidate) => (typeof port === 'number' ? candidate.port === port : candidate.name === port))
}

/**
 * The endpoints that take new traffic, on the slice port whose name is the Service port's name.
 * `ready` absent means ready, as the EndpointSlice API defines it; only the first address of an
 * endpoint is used (the others are fungible). Slices may overlap while they are being replaced.
 */
function readyServers(slices: EndpointSlice[], portName: string): Server[] {
  const servers: Server[] = []
  for (const slice of slices) {
    if (slice.addressType === 'FQDN') continue
    const port = slice.ports?.find((candidate) => (candidate.name ?? '') === portName)?.port
    if (!port) continue
    for (const endpoint of slice.endpoints ?? []) {
      if (endpoint.conditions?.ready === false) continue
      servers.push({ address: endpoint.addresses[0]!, port, family: slice.addressType })
    }
  }
  // Sorted, each once: a server two overlapping slices list is two neighbours (150,000 servers at 20,000 Ingresses, no key made for each).
  sortFew(servers, compareServers)
  let kept = 0
  for (const server of servers) if (kept === 0 || compareServers(servers[kept - 1]!, server) !== 0) servers[kept++] = server
  servers.length = kept
  return servers
}

const compareServers = (a: Server, b: Server) => compareText(a.family, b.family) || compareText(a.address, b.address) || a.port - b.port
