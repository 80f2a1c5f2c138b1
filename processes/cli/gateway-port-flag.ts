import { gatewayPortList, gatewayPortsClash } from '../../core/model/gateway-port-setting.ts'
import type { ClusterOptions, GatewayPort } from '../../core/model/settings.ts'
import { UsageError } from './usage-error.ts'

/** `PORT/PROTOCOL` or `PORT/PROTOCOL@BIND`: `8080/HTTP`, `8443/HTTPS@127.0.0.1:9443`. */
const FLAG_FORM = /^(?<port>\d{1,5})\/(?<protocol>[A-Za-z]+)(?:@(?<bind>.+))?$/

/**
 * `--gateway-port` values as the cluster's `gatewayPorts`, checked as registration checks them
 * (gateway-port-setting.ts). Without `@BIND` a port is bound on every address at its own number.
 */
export function gatewayPortsFlag(values: readonly string[], binds: Pick<ClusterOptions, 'httpBind' | 'httpsBind'>): GatewayPort[] {
  const ports = values.map((value) => {
    const form = FLAG_FORM.exec(value)?.groups
    if (!form) throw new UsageError(`--gateway-port ${value}: must be PORT/PROTOCOL or PORT/PROTOCOL@ADDR:PORT (8080/HTTP, 8443/HTTPS@127.0.0.1:9443)`)
    return { port: Number(form.port), protocol: form.protocol, bind: form.bind ?? `:${form.port}` }
  })
  const checked = gatewayPortList.safeParse(ports)
  if (!checked.success) {
    const [issue] = checked.error.issues
    const index = typeof issue?.path[0] === 'number' ? issue.path[0] : undefined
    const named = index === undefined ? '' : ` ${values[index]}`
    const field = issue?.path.slice(1).join('.')
    throw new UsageError(`--gateway-port${named}: ${field ? `${field}: ` : ''}${issue?.message}`)
  }
  const clash = gatewayPortsClash({ ...binds, gatewayPorts: checked.data })
  if (clash) throw new UsageError(`--gateway-port: ${clash}`)
  return checked.data
}
