import { TRUSTED_PROXIES_FILE } from './render-access.ts'

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

/** What the Service is told of the scheme: the client's, never what a client claims on its own. */
export const FORWARDED_PROTO_RULE = `    http-request set-header X-Forwarded-Proto ${CLIENT_SCHEME}`

/**
 * The `:port` of an HTTPS redirect's location: the HTTPS bind's port unless it is 443, and none
 * when the scheme came from a trusted proxy, whose clients know only the standard port.
 */
export function httpsPortRules(set: (name: string, expr: string, condition?: string) => string, port: number): string[] {
  return port === 443 ? [] : [set('httpsport', `str(:${port})`, 'unless { var(txn.forwardedscheme) -m found }')]
}
