import type { VerifyClient } from '../annotations/client-cert-features.ts'
import type { Ingress } from '../kube/ingress.ts'
import { caBundleOf } from './backend-ca.ts'
import { chainIssuers, DEFAULT_VERIFY_DEPTH } from './client-cert-chain.ts'
import type { ClusterState } from './cluster-state.ts'
import { ingressAnnotations } from './ingress-annotations.ts'
import { againstSecret, NOTHING_ASKED } from './object-reading.ts'

/** What a host asks of its clients' certificates (auth-tls-*), checked by the handshake of its name (SNI) and by its requests. */
export interface ClientCert {
  /** The Secret (`namespace/name`) whose CA bundle verifies them. */
  ca: string
  verify: Exclude<VerifyClient, 'off'>
  /** Where a client without a valid certificate is redirected, instead of a 495 or 496. */
  errorPage?: string
  /** The certificate is sent to the Service (ssl-client-cert). */
  passCertificate?: true
  /** auth-tls-verify-depth: the most intermediate certificates between a client's and a self-signed CA. */
  depth: number
  /** The bundle's certificates that may issue a client's within the depth, by subject as HAProxy's `ssl_c_i_dn,hex` gives it (client-cert-chain.ts). */
  issuers: string[]
  /** auth-tls-match-cn: the expression the subject DN must hold (match-cn.ts), checked by render-client-cn.ts. */
  matchCn?: string
}

export type ClientCertReading = { none: true } | { clientCert: ClientCert; pem: string } | { refusal: string }

/** The Secret (`namespace/name`) an Ingress names for its clients' CA bundle, in any spelling: its own namespace unless it names another. */
export function clientCaSecretOf(ingress: Ingress): string | undefined {
  const ref = ingressAnnotations(ingress).rendered['auth-tls-secret']
  return ref && `${ref.namespace ?? ingress.metadata.namespace}/${ref.name}`
}

/**
 * The client certificates an Ingress asks for. Asked for and impossible (no Secret named, a Secret
 * missing or invalid, without the key's certificates, or with a revocation list hapedge does not
 * check) refuses the Ingress: its routes answer 503, never a client unchecked.
 */
export const clientCertOf = againstSecret(clientCaSecretOf, judge)

/** Why an Ingress asking for client certificates is refused (made only when it is: a full rebuild judges every Ingress). */
function refuse(reason: string): ClientCertReading {
  return { refusal: `client certificates: ${reason}, so no client certificate could be checked; its routes answer 503` }
}

function judge(ingress: Ingress, key: string | undefined, secret: ReturnType<ClusterState['secret']>): ClientCertReading {
  const { rendered } = ingressAnnotations(ingress)
  const ref = rendered['auth-tls-secret']
  // ingress-nginx: "on" unless auth-tls-verify-client says otherwise.
  const verify = rendered['auth-tls-verify-client'] ?? (ref ? 'on' : 'off')
  // A subject to match without a certificate asked for would serve everyone: refused, never open.
  if (verify === 'off' && rendered['auth-tls-match-cn'] !== undefined)
    return refuse('auth-tls-match-cn asks for a subject, but no client certificate is asked for')
  if (verify === 'off') return NOTHING_ASKED
  if (!ref || key === undefined) return refuse(`auth-tls-verify-client is "${verify}" but no auth-tls-secret names the CA`)
  const bundle = caBundleOf(key, secret, ref.key)
  if (!bundle.ok) return refuse(bundle.reason)
  if (secret && !('issues' in secret) && (secret.data as Record<string, string | undefined>)['ca.crl'] !== undefined)
    return refuse(`Secret ${key} holds a revocation list (ca.crl), which hapedge does not check`)
  const asked = rendered['auth-tls-verify-depth']
  const depth = asked === undefined || asked === 0 ? DEFAULT_VERIFY_DEPTH : asked
  const chain = chainIssuers(bundle.pem, depth)
  if ('reason' in chain) return refuse(`Secret ${key}: ${chain.reason}`)
  const errorPage = rendered['auth-tls-error-page']
  const clientCert: ClientCert = { ca: key, verify, depth, issuers: chain.issuers }
  if (errorPage !== undefined) clientCert.errorPage = errorPage
  if (rendered['auth-tls-pass-certificate-to-upstream'] === true) clientCert.passCertificate = true
  if (rendered['auth-tls-match-cn'] !== undefined) clientCert.matchCn = rendered['auth-tls-match-cn']
  return { clientCert, pem: bundle.pem }
}

/** Whether two Ingresses ask the same of a host's clients. */
export function sameClientCert(a: ClientCert | undefined, b: ClientCert | undefined): boolean {
  return JSON.stringify(a) === JSON.stringify(b)
}

/** The CA bundle (`ca.crt`, as every spelling names it) of a Secret (`namespace/name`) hosts ask their clients' certificates of, when it resolves. */
export function clientCaPem(ca: string, state: ClusterState): string | undefined {
  const [namespace = '', name = ''] = ca.split('/')
  const bundle = caBundleOf(ca, state.secret(namespace, name), 'ca.crt')
  return bundle.ok ? bundle.pem : undefined
}
