import type { Listener } from '../kube/gateway.ts'
import { bindPort } from './bind-address.ts'
import type { ClusterOptions } from './settings.ts'

/** The binds a Gateway's listeners are served on. */
export type Binds = Pick<ClusterOptions, 'httpBind' | 'httpsBind'>

/** The port each protocol's clients reach, in front of a Service that maps it to the bind. */
const STANDARD_PORTS: Readonly<Record<string, number>> = { HTTP: 80, HTTPS: 443 }

/**
 * The ports an HTTP or HTTPS listener may name: its protocol's bind's port, and the protocol's
 * standard port (80, 443), which a Service in front of HAProxy maps to the bind. hapedge opens no
 * socket per listener, so a listener on any other port would be served where it does not say.
 */
export function servedPorts(protocol: string, binds: Binds): number[] {
  const bind = protocol === 'HTTPS' ? binds.httpsBind : binds.httpBind
  return [...new Set([STANDARD_PORTS[protocol] ?? 0, bindPort(bind)])]
}

/** Why an HTTP or HTTPS listener's port is not served, if it is not (`8080 is not served …`). */
export function listenerPortRefusal(listener: Pick<Listener, 'port' | 'protocol'>, binds: Binds): string | undefined {
  const [standard, bind] = servedPorts(listener.protocol, binds)
  if (listener.port === standard || listener.port === bind) return undefined
  const served = `the ${listener.protocol} bind's port ${bind ?? standard}${bind === undefined ? '' : ` and ${standard}, which a Service in front of HAProxy maps to it`}`
  return `${listener.port} is not served by hapedge: ${listener.protocol} listeners are served on ${served}, and hapedge opens no other socket`
}
