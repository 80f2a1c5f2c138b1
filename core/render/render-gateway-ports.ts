import type { GatewayPort } from '../model/settings.ts'
import { FILES } from './files.ts'
import type { SetVar } from './route-keys.ts'

/** The name of a port's bind, which `so_name` reads back: the frontend knows which port a request came on. */
const bindName = (port: number) => `gateway-port-${port}`

/**
 * The binds of the cluster's gatewayPorts: an HTTP port's in clear, an HTTPS port's with the HTTPS
 * bind's options and a crt-list of its own (`tlsOptions`: its certificates, by SNI) while it has
 * any, as the HTTPS bind is.
 */
export function gatewayPortBinds(ports: readonly GatewayPort[], tlsOptions: (port: number) => string | undefined): string[] {
  return ports.flatMap(({ port, protocol, bind }) => {
    if (protocol === 'HTTP') return [`    bind ${bind} name ${bindName(port)}`]
    const options = tlsOptions(port)
    return options === undefined ? [] : [`    bind ${bind} name ${bindName(port)} ${options}`]
  })
}

/** Set when a request came on a port of its own: the rules that must not serve it test it. */
export const OWN_PORT = '{ var(txn.ownport) -m found }'

/**
 * A request on a port of its own finds its host as `name:port` (hostOnPort, gateway-ports.ts), in
 * the order of the binds' (exact name, `*.` + the parent domain, a deeper wildcard), else the
 * port's rules without host (`:port`): `txn.vhost` is always found then, so no lookup of the
 * HTTP and HTTPS binds' hosts follows, and a route of another port is never served on it.
 */
export function gatewayPortRules(set: SetVar, ports: readonly GatewayPort[]): string[] {
  const unfound = `${OWN_PORT} !{ var(txn.vhost) -m found }`
  return [
    ...ports.map(({ port }) => set('ownport', `str(:${port})`, `if { so_name ${bindName(port)} }`)),
    set('vhost', `var(txn.host),concat(,txn.ownport,),map_str(${FILES.hostsMap})`, `if ${OWN_PORT}`),
    set('portparent', 'var(txn.host),field(2,.,0)', `if ${unfound}`),
    set('vhost', `str(*.),concat(,txn.portparent,),concat(,txn.ownport,),map_str(${FILES.hostsMap})`, 'if { var(txn.portparent) -m found }'),
    set('vhost', `var(txn.host),concat(,txn.ownport,),map_reg(${FILES.wildcardHostsMap})`, `if ${unfound}`),
    set('vhost', 'var(txn.ownport)', `if ${unfound}`),
  ]
}
