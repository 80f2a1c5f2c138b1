import { z } from 'zod'
import { bindAddress, bindPort } from './bind-address.ts'
import type { ClusterOptions } from './settings.ts'

/** Each is a socket HAProxy opens and a lookup on the requests it takes: an operator names a few. */
const MAX_GATEWAY_PORTS = 16

const gatewayPort = z.strictObject({
  port: z.int('must be a whole number').min(1, 'must be 1 to 65535').max(65535, 'must be 1 to 65535'),
  protocol: z.enum(['HTTP', 'HTTPS'], { error: 'must be "HTTP" or "HTTPS"' }),
  bind: bindAddress,
})

/**
 * A cluster's `gatewayPorts`: the Gateway listener ports its HAProxy serves on sockets of their
 * own (gateway-ports.ts). The operator chooses them, so a Gateway never makes HAProxy bind a port;
 * 80 and 443 are the HTTP and HTTPS binds' already.
 */
export const gatewayPortList = z
  .array(gatewayPort)
  .max(MAX_GATEWAY_PORTS, `at most ${MAX_GATEWAY_PORTS} ports`)
  .superRefine((ports, context) => {
    // Binds on one port share its connections whatever their addresses (HAProxy binds with SO_REUSEPORT): one per port.
    const seen = { port: new Set<number>(), bind: new Set<number>() }
    ports.forEach(({ port, bind }, index) => {
      if (port === 80 || port === 443) context.addIssue({ code: 'custom', path: [index, 'port'], message: `${port} is served on the HTTP or HTTPS bind` })
      if (seen.port.has(port)) context.addIssue({ code: 'custom', path: [index, 'port'], message: `${port} is named twice` })
      if (seen.bind.has(bindPort(bind))) context.addIssue({ code: 'custom', path: [index, 'bind'], message: `${bind} is on a port another bind has` })
      seen.port.add(port)
      seen.bind.add(bindPort(bind))
    })
  })

/**
 * Why a cluster's gatewayPorts do not go with its binds, if they do not: a port the HTTP or HTTPS
 * bind already serves, or a bind on the HTTP or HTTPS bind's port (HAProxy would share the
 * connections between the two sockets, whatever the address, as it binds with SO_REUSEPORT).
 */
export function gatewayPortsClash({
  httpBind,
  httpsBind,
  gatewayPorts = [],
}: Pick<ClusterOptions, 'httpBind' | 'httpsBind' | 'gatewayPorts'>): string | undefined {
  const binds = new Set([bindPort(httpBind), bindPort(httpsBind)])
  for (const { port, bind } of gatewayPorts) {
    if (binds.has(port)) return `port ${port} is the HTTP or HTTPS bind's, whose listeners it already serves`
    if (binds.has(bindPort(bind))) return `bind ${bind} is on the HTTP or HTTPS bind's port`
  }
  return undefined
}
