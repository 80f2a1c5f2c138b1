import type { Listener } from '../kube/gateway.ts'
import { bindPort } from './bind-address.ts'
import type { ClusterOptions } from './settings.ts'

/** The binds a Gateway's listeners are served on: the HTTP and HTTPS binds, and the cluster's ports of their own. */
export type Binds = Pick<ClusterOptions, 'httpBind' | 'httpsBind' | 'gatewayPorts'>

/** The port each protocol's clients reach, in front of a Service that maps it to the bind. */
const STANDARD_PORTS: Readonly<Record<string, number>> = { HTTP: 80, HTTPS: 443 }

/**
 * The ports an HTTP or HTTPS listener may name on the protocol's bind: its port, and the
 * protocol's standard port (80, 443), which a Service in front of HAProxy maps to the bind.
 */
export function servedPorts(protocol: string, binds: Binds): number[] {
  const bind = protocol === 'HTTPS' ? binds.httpsBind : binds.httpBind
  return [...new Set([STANDARD_PORTS[protocol] ?? 0, bindPort(bind)])]
}

/**
 * The port of the socket of its own a listener is served on: one of the cluster's `gatewayPorts`
 * of its protocol. Undefined when the HTTP or HTTPS bind serves it (or nothing does).
 */
export function ownPortOf(listener: Pick<Listener, 'port' | 'protocol'>, binds: Binds): number | undefined {
  if (servedPorts(listener.protocol, binds).includes(listener.port)) return undefined
  return binds.gatewayPorts?.some((own) => own.port === listener.port && own.protocol === listener.protocol) ? listener.port : undefined
}

/** Why an HTTP or HTTPS listener's port is not served, if it is not (`8080 is not served …`). */
export function listenerPortRefusal(listener: Pick<Listener, 'port' | 'protocol'>, binds: Binds): string | undefined {
  const [standard, bind] = servedPorts(listener.protocol, binds)
  if (listener.port === standard || listener.port === bind) return undefined
  const own = binds.gatewayPorts?.find((port) => port.port === listener.port)
  if (own?.protocol === listener.protocol) return undefined
  if (own) return `${listener.port} is served by hapedge for ${own.protocol} listeners only (the cluster's gatewayPorts)`
  const served = `the ${listener.protocol} bind's port ${bind ?? standard}${bind === undefined ? '' : ` and ${standard}, which a Service in front of HAProxy maps to it`}`
  const others = (binds.gatewayPorts ?? []).filter((port) => port.protocol === listener.protocol).map((port) => port.port)
  return `${listener.port} is not served by hapedge: ${listener.protocol} listeners are served on ${served}, and on the cluster's gatewayPorts (${others.join(', ') || 'none'})`
}

/**
 * The host a name is served as on a port of its own: `foo.com:8080`, and `:8080` for the rules
 * without host. Its routes, keyed by it in every map, are found only by the requests of that port's
 * socket (render-gateway-ports.ts). The HTTP and HTTPS binds' hosts are DNS names, without `:`.
 */
export const hostOnPort = (name: string, port: number | undefined): string => (port === undefined ? name : `${name}:${port}`)

/** A host's name and the port of its own it is served on (none: the HTTP and HTTPS binds). */
export function splitHostOnPort(host: string): { name: string; port?: number } {
  const colon = host.lastIndexOf(':')
  return colon < 0 ? { name: host } : { name: host.slice(0, colon), port: Number(host.slice(colon + 1)) }
}

/**
 * The hosts derived for these: each, and each name on every port of its own. A name's routes on
 * every port come from the same objects (the hosts index holds names), so a change of them derives
 * all; a cluster without gatewayPorts derives each host once, as before.
 */
export function withHostsOnPorts(hosts: Iterable<string>, binds: Pick<Binds, 'gatewayPorts'>): Iterable<string> {
  const ports = binds.gatewayPorts ?? []
  if (ports.length === 0) return hosts
  const all = new Set<string>()
  for (const host of hosts) {
    all.add(host)
    if (!host.includes(':')) for (const { port } of ports) all.add(hostOnPort(host, port))
  }
  return all
}
