import type { HostConfig } from '../model/derive-host.ts'
import { regexLiteral } from '../syntax/safe-regex-emit.ts'
import { FILES } from './files.ts'
import type { AddEntry, SetVar } from './route-keys.ts'

/**
 * auth-tls-match-cn per host: `maps/client-cn.map` holds two map_reg lines for a host that asks
 * for it, which the frontend looks `host/<subject DN>` up in (the DN as NGINX's $ssl_client_s_dn
 * gives it, RFC 2253: `CN=client,O=Example`): the host's expression (match-cn.ts), then the host
 * alone, ranked in that order by a comment (the first line that matches wins; map files are sorted
 * by key). The first says the subject matches; the second, that the host asks and it does not
 * (403, as ingress-nginx answers). A changed expression is a runtime swap (map-updates.ts).
 */

export type ClientCnMap = typeof FILES.clientCnMap

const MATCHES = 'match'
const REFUSED = 'refuse'

export function clientCnEntries(config: HostConfig, add: AddEntry<ClientCnMap>): void {
  const { clientCert, host } = config
  if (!clientCert?.matchCn || host === '') return
  const start = `^${regexLiteral(host)}`
  add(FILES.clientCnMap, `${start}(?#0)/${clientCert.matchCn}`, MATCHES)
  add(FILES.clientCnMap, `${start}(?#1)/`, REFUSED)
}

/** The frontend's rules, after the client certificate's own checks (render-client-cert.ts): a certificate absent or not matching is refused. */
export function clientCnRules(set: SetVar): string[] {
  return [
    set('certdn', 'ssl_c_s_dn(,0,rfc2253)', 'if { var(txn.clientcert) -m found } { ssl_c_used }'),
    set('certcn', `var(txn.vhost),concat(/,txn.certdn),map_reg(${FILES.clientCnMap})`, 'if { var(txn.clientcert) -m found }'),
    `    http-request return status 403 content-type text/plain string "403 Forbidden: client certificate unauthorized" if { var(txn.certcn) -m str ${REFUSED} }`,
  ]
}
