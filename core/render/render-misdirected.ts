import { CATCH_ALL_LISTENER } from '../model/gateway-tls.ts'
import { FILES, type MapLine } from './files.ts'
import { mapEntry } from './render-maps.ts'
import type { SetVar } from './route-keys.ts'
import { wildcardHostKey } from './render-wildcard-hosts.ts'

/**
 * The specification's misdirected requests (Listener.hostname, GEP-3567): on HTTPS, a request
 * whose Host is not its connection's SNI name is answered 421 when the two fall to different
 * listeners and some listener matches the Host (a browser that reused a connection for another
 * name then opens one for it), and routed by its Host otherwise. A name's listener is the most
 * specific served HTTPS listener hostname that matches it: exact, then the wildcard of the longest
 * suffix (of any number of labels, as the Gateway API's), then the listener without hostname
 * (`*`). `maps/tls-listeners.map` holds those hostnames, and `maps/tls-wildcard-listeners.map` a
 * wildcard's suffix as a regular expression, longest first (wildcardHostKey), so a listener's
 * hostname that comes or goes is a runtime map edit.
 */
export function tlsListenerEntries(hostnames: readonly string[]): MapLine[] {
  return hostnames.map((hostname) => mapEntry(hostname, hostname))
}

export function tlsWildcardListenerEntries(hostnames: readonly string[]): MapLine[] {
  return hostnames.filter((hostname) => hostname.startsWith('*.')).map((hostname) => mapEntry(wildcardHostKey(hostname), hostname))
}

const MAP = FILES.tlsListenersMap
const WILDCARDS = FILES.tlsWildcardListenersMap

/** The frontend's rules, once the Host is read (`txn.host`): only a TLS request whose SNI name is not its Host is looked up. */
export function misdirectedRules(set: SetVar): string[] {
  const listenerOf = (name: string) => [
    set(`${name}listener`, `var(txn.${name}),map_str(${MAP},${CATCH_ALL_LISTENER})`, 'if { var(txn.sni) -m found }'),
    set(`${name}listener`, `var(txn.${name}),map_reg(${WILDCARDS},${CATCH_ALL_LISTENER})`, `if { var(txn.${name}listener) -m str ${CATCH_ALL_LISTENER} }`),
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
