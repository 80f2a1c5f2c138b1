import { TRUSTED_PROXIES_FILE } from './render-access.ts'
import type { SetVar } from './route-keys.ts'

/**
 * The scheme the client used, in `txn.scheme`: `https` on the HTTPS bind; from a trusted proxy
 * (`proxy-real-ip-cidr` with `use-forwarded-headers`), what its `X-Forwarded-Proto` says, so that
 * a proxy terminating TLS in front of HAProxy gets no redirect to HTTPS for a request its client
 * made over HTTPS (a loop), and HSTS on it. Read before X-Forwarded-For replaces the source.
 */
export function schemeRules(trustedProxies: boolean): string[] {
  return [
    '    http-request set-var(txn.scheme) str(https) if { ssl_fc }',
    '    http-request set-var(txn.scheme) str(http) unless { ssl_fc }',
    ...(trustedProxies
      ? [
          `    http-request set-var(txn.scheme) req.hdr(x-forwarded-proto),lower if { src -f ${TRUSTED_PROXIES_FILE} } { req.hdr(x-forwarded-proto),lower -m str http https }`,
          `    http-request set-var(txn.fromproxy) bool(true) if { src -f ${TRUSTED_PROXIES_FILE} }`,
          // Its clients reach the proxy on the standard port, not on HAProxy's HTTPS bind.
          `    http-request set-var(txn.forwardedscheme) bool(true) if { src -f ${TRUSTED_PROXIES_FILE} } { req.hdr(x-forwarded-proto),lower -m str http https }`,
        ]
      : []),
  ]
}

/** Whether the client used HTTPS: a condition. */
export const CLIENT_HTTPS = '{ var(txn.scheme) -m str https }'

/** The scheme in a log-format string (a redirect's location). */
export const CLIENT_SCHEME = '%[var(txn.scheme)]'

/**
 * What the Service is told of the request as the client made it, never what a client claims on its
 * own: the scheme; the Host and port it asked for (a trusted proxy's X-Forwarded-Host and -Port
 * kept); its address in X-Real-IP (the client's once X-Forwarded-For named it); and `Forwarded`
 * only from a trusted proxy. Set before upstream-vhost replaces the Host.
 */
export const FORWARDED_RULES: readonly string[] = [
  `    http-request set-header X-Forwarded-Proto ${CLIENT_SCHEME}`,
  '    http-request set-header X-Forwarded-Host %[req.hdr(host)] unless { var(txn.fromproxy) -m found } { req.hdr(x-forwarded-host) -m found }',
  '    http-request set-header X-Forwarded-Port %[dst_port] unless { var(txn.fromproxy) -m found } { req.hdr(x-forwarded-port) -m found }',
  '    http-request set-header X-Real-IP %[src]',
  '    http-request del-header Forwarded unless { var(txn.fromproxy) -m found }',
]

/**
 * The `:port` of an HTTPS redirect's location: the HTTPS bind's port unless it is 443, and none
 * when the scheme came from a trusted proxy, whose clients know only the standard port.
 */
export function httpsPortRules(set: SetVar, port: number): string[] {
  return port === 443 ? [] : [set('httpsport', `str(:${port})`, 'unless { var(txn.forwardedscheme) -m found }')]
}
