import { describeIssue } from '../issues.ts'
import type { Ingress } from '../kube/ingress.ts'
import { caBundlePem, type PemResult } from '../tls/pem.ts'
import type { ClusterState } from './cluster-state.ts'
import { ingressAnnotations } from './ingress-annotations.ts'
import { againstSecret, NOTHING_ASKED } from './object-reading.ts'
import { upstreamOf, type Upstream, type UpstreamTls } from './upstream.ts'

/** The Secret (`namespace/name`) an Ingress names for its backends' CA bundle, in any spelling (proxy-ssl-secret, secure-verify-ca-secret, server-ca). */
export function caSecretOf(ingress: Ingress): string | undefined {
  const ref = ingressAnnotations(ingress).rendered['proxy-ssl-secret']
  return ref && `${ref.namespace ?? ingress.metadata.namespace}/${ref.name}`
}

export type BackendCaReading = { none: true } | { pem: string } | { refusal: string }

/**
 * The CA bundle an Ingress asks its backends to be verified with. Verification asked for and
 * impossible (no Secret named, a Secret missing, invalid or without the key's certificates)
 * refuses the Ingress: its routes answer 503, never an unverified server.
 */
export const backendCaOf = againstSecret(caSecretOf, judge)

function judge(ingress: Ingress, key: string | undefined, secret: ReturnType<ClusterState['secret']>): BackendCaReading {
  const { rendered } = ingressAnnotations(ingress)
  if (rendered['proxy-ssl-verify'] !== true) return NOTHING_ASKED
  const protocol = upstreamOf(ingress).upstream?.protocol
  if (protocol !== 'HTTPS' && protocol !== 'GRPCS') return NOTHING_ASKED
  const refuse = (reason: string): BackendCaReading => ({
    refusal: `backend certificate verification: ${reason}, so no server could be verified; its routes answer 503`,
  })
  const ref = rendered['proxy-ssl-secret']
  if (!ref || key === undefined) return refuse('proxy-ssl-verify is on but no proxy-ssl-secret names the CA')
  const bundle = caBundleOf(key, secret, ref.key)
  return bundle.ok ? { pem: bundle.pem } : refuse(bundle.reason)
}

/** The CA bundle under a data key of a Secret (`namespace/name`) as the cluster holds it, or why there is none. */
export function caBundleOf(key: string, secret: ReturnType<ClusterState['secret']>, dataKey: string): PemResult {
  if (!secret) return { ok: false, reason: `Secret ${key} does not exist, or holds no certificate under "${dataKey}"` }
  if ('issues' in secret) return { ok: false, reason: `Secret ${key} is invalid: ${secret.issues.slice(0, 3).map(describeIssue).join('; ')}` }
  const field = (secret.data as Record<string, string | undefined>)[dataKey]
  if (field === undefined) return { ok: false, reason: `Secret ${key} holds no "${dataKey}"` }
  const pem = caBundlePem(field, dataKey)
  return pem.ok ? pem : { ok: false, reason: `Secret ${key}: ${pem.reason}` }
}

/** The CA file of a backend that verifies its servers, and its content, when it has one that resolves. */
export function caFileOf(upstream: Upstream | undefined, state: ClusterState): { path: string; pem: string } | undefined {
  const ca = upstream?.tls?.ca
  if (!ca) return undefined
  const [namespace = '', name = ''] = ca.secret.split('/')
  const bundle = caBundleOf(ca.secret, state.secret(namespace, name), ca.key)
  return bundle.ok ? { path: caFile(ca), pem: bundle.pem } : undefined
}

/** Where the CA bundle of a Secret's data key is written, `ca/<namespace>_<name>_<key>.pem`: one file per bundle, shared by the backends it verifies. */
export function caFile(ca: NonNullable<UpstreamTls['ca']>): string {
  return `ca/${ca.secret.replace('/', '_')}_${ca.key}.pem`
}
