import { CATCH_ALL_LISTENER } from '../model/gateway-tls.ts'
import { FILES, type Entry } from './files.ts'
import { mapEntry } from './render-maps.ts'
import type { SetVar } from './route-keys.ts'

/**
 * The specification's misdirected requests (Listener.hostname, GEP-3567): on HTTPS, a request
 * whose Host is not its connection's SNI name is answered 421 when the two fall to different
 * listeners and some listener matches the Host (a browser that reused a connection for another
 * name then opens one for it), and routed by its Host otherwise. A name's listener is the most
 * specific served HTTPS listener hostname that matches it: exact, then `*.` + its parent domain,
 * then the listener without hostname (`*`). `maps/tls-listeners.map` holds those hostnames, so a
 * listener's hostname that comes or goes is a runtime map edit.
 */
export function tlsListenerEntries(hostnames: readonly string[]): Entry[] {
  return hostnames.map((hostname) => mapEntry(hostname, hostname))
}

const MAP = FILES.tlsListenersMap

/** The frontend's rules, once the Host is read (`txn.host`): only a TLS request whose SNI name is not its Host is looked up. */
export function misdirectedRules(set: SetVar): string[] {
  const listenerOf = (name: string) => [
    set(`${name}listener`, `var(txn.${name}),map_str(${MAP},${CATCH_ALL_LISTENER})`, 'if { var(txn.sni) -m found }'),
    set(`${name}parent`, `var(txn.${name}),field(2,.,0)`, `if { var(txn.${name}listener) -m str ${CATCH_ALL_LISTENER} }`),
    set(`${name}listener`, `str(*.),concat(,txn.${name}parent,),map_str(${MAP},${CATCH_ALL_LISTENER})`, `if { var(txn.${name}parent) -m found }`),
  ]
  return [
    set('sni', 'ssl_fc_sni,lower', 'if { ssl_fc_has_sni } { var(txn.host) -m found } !{ ssl_fc_sni,lower,strcmp(txn.host) eq 0 }'),
    ...listenerOf('sni'),
    ...listenerOf('host'),
    set('misdirected', 'bool(true)', 'if { var(txn.sni) -m found } !{ var(txn.snilistener),strcmp(txn.hostlistener) eq 0 }'),
    `    http-request return status 421 content-type text/plain string "${MISDIRECTED}" if { var(txn.misdirected) -m bool } !{ var(txn.hostlistener) -m str ${CATCH_ALL_LISTENER} } or { var(txn.misdirected) -m bool } { str(${CATCH_ALL_LISTENER}),map_str(${MAP}) -m found }`,
  ]
}

const MISDIRECTED = '421 Misdirected Request: this connection was made for a name another listener serves'
