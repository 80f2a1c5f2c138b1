import type { HostConfig } from '../model/derive-host.ts'
import { compareText } from '../compare-text.ts'
import { FILES, fileStem, type Entry } from './files.ts'
import type { AddEntry, SetVar } from './route-keys.ts'

/**
 * Client certificates (mTLS), per host. The handshake of a host's name (SNI) asks for a certificate
 * on its own crt-list line (`ca-file … verify optional`: one line per certificate and CA, since a
 * line's options hold for all its names), and the request decides, so that a failure can be
 * answered (495, 496) or redirected (auth-tls-error-page) as ingress-nginx does, and so that a
 * connection made for another name (a host without client certificates, whose SNI asked for none)
 * never reaches the host: its SNI must be the Host (421 otherwise).
 */

/**
 * A host's map value, `<verify>;<pass 1|0>;<error page>` (the page last: a URL may hold `;`), and
 * one key `<host>/<issuer>` per certificate of its CA bundle that may issue a client's within its
 * auth-tls-verify-depth (client-cert-chain.ts), so that a change of either is a map edit.
 */
export function clientCertEntries(config: HostConfig, add: AddEntry<typeof FILES.clientCertMap>): void {
  const { clientCert, host } = config
  if (!clientCert || host === '') return
  add(FILES.clientCertMap, host, `${clientCert.verify};${clientCert.passCertificate ? 1 : 0};${clientCert.errorPage ?? ''}`)
  for (const issuer of clientCert.issuers) add(FILES.clientCertMap, `${host}/${issuer}`, ISSUER)
}

/** The value of a host's issuer keys: only their presence is read. */
const ISSUER = 'issuer'

/** Where a line's certificate is written: a directory per CA (its first word keys the line, render-tls.ts). */
export function clientCertFile(secret: string, ca: string): string {
  return `tls/ca.${fileStem(ca)}/${fileStem(secret)}.pem`
}

/** The CA bundle of a line: one file per line, written and removed with it. */
export function clientCaFile(secret: string, ca: string): string {
  return `client-ca/${fileStem(ca)}/${fileStem(secret)}.pem`
}

/** The crt-list line of a certificate for the hosts that ask their clients for certificates of one CA. */
export function clientCertLine(secret: string, ca: string, hosts: Iterable<string>): Entry {
  const path = clientCertFile(secret, ca)
  return { key: path, text: `${[path, `[ca-file ${clientCaFile(secret, ca)} verify optional]`, ...[...hosts].sort(compareText)].join(' ')}\n` }
}

/** The hosts of one certificate by the CA they ask their clients' certificates of (`''`: none). */
export function hostsByClientCa(configs: Iterable<Pick<HostConfig, 'host' | 'clientCert'>>): Map<string, string[]> {
  const byCa = new Map<string, string[]>()
  for (const { host, clientCert } of configs) {
    const ca = clientCert?.ca ?? ''
    byCa.set(ca, [...(byCa.get(ca) ?? []), host])
  }
  return byCa
}

/** The HTTPS bind's options with client certificates: a bad one is judged by the request (ssl_c_verify), not by the handshake. */
export const CLIENT_CERT_BIND_OPTIONS = 'ca-ignore-err all crt-ignore-err all'

/** The headers the Service reads a client's certificate from: never the client's own. */
const CERTIFICATE_HEADERS = ['ssl-client-cert', 'ssl-client-verify', 'ssl-client-subject-dn', 'ssl-client-issuer-dn']

const DEPTH_REFUSAL =
  'the certificate was not issued by a certificate of the CA bundle within auth-tls-verify-depth (intermediates the client sends are not counted: the bundle must hold them)'

const PEM = '-----BEGIN%%20CERTIFICATE-----%%0A%[ssl_c_der,base64,url_enc]%%0A-----END%%20CERTIFICATE-----%%0A'

/** The frontend's rules for the hosts of the client-cert map (set: render-frontend.ts's set-var helper). */
export function clientCertRules(set: SetVar): string[] {
  const asked = '{ var(txn.clientcert) -m found }'
  return [
    set('clientcert', `var(txn.vhost),map_str(${FILES.clientCertMap})`, 'if { var(txn.vhost) -m found }'),
    ...CERTIFICATE_HEADERS.map((header) => `    http-request del-header ${header} if ${asked}`),
    `    http-request return status 421 content-type text/plain string "421 Misdirected Request: this host asks for client certificates by its own name (SNI)" if ${asked} { ssl_fc } !{ ssl_fc_sni,lower,strcmp(txn.host) eq 0 }`,
    set('certfail', 'str(496)', 'if { var(txn.clientcert) -m beg on; } !{ ssl_c_used }'),
    set('certfail', 'str(495)', 'if { var(txn.clientcert) -m reg ^(on|optional); } { ssl_c_used } !{ ssl_c_verify 0 }'),
    // A verified certificate's issuer must be one the depth allows: HAProxy 2.6 verifies a chain of any length.
    set('certissuer', 'ssl_c_i_dn,hex', `if ${asked} { ssl_c_used } { ssl_c_verify 0 }`),
    set('certfail', 'str(depth)', `if { var(txn.certissuer) -m found } !{ var(txn.vhost),concat(/,txn.certissuer),map_str(${FILES.clientCertMap}) -m found }`),
    '    http-request redirect location %[var(txn.clientcert),regsub(^[^;]*;[01];,)] code 302 if { var(txn.certfail) -m found } { var(txn.clientcert) -m reg ^[^;]*;[01];. }',
    '    http-request return status 496 content-type text/plain string "496 No required SSL certificate was sent" if { var(txn.certfail) -m str 496 }',
    '    http-request return status 495 content-type text/plain string "495 The SSL certificate error" if { var(txn.certfail) -m str 495 }',
    `    http-request return status 495 content-type text/plain string "495 The SSL certificate error: ${DEPTH_REFUSAL}" if { var(txn.certfail) -m str depth }`,
    `    http-request set-header ssl-client-cert ${PEM} if { var(txn.clientcert) -m reg ^[^;]*;1; } { ssl_c_used }`,
  ]
}
