import { describeIssue } from '../issues.ts'
import { TLS_SECRET_TYPE, type TlsSecret } from '../kube/secret.ts'
import { certificatePem, type PemResult } from '../tls/pem.ts'
import type { ClusterState } from './cluster-state.ts'

export type ResolvedSecret =
  | { ok: true; key: string; pem: string }
  /** `problem`: what is wrong with the Secret itself, which is reported on the Secret too (absent when there is no Secret to blame). */
  | { ok: false; reason: string; problem?: string }

const pemBySecret = new WeakMap<TlsSecret, PemResult>()

/** The certificate file a TLS entry's Secret gives, or why it gives none. Objects are immutable, so results are memoised by identity. */
export function resolveTlsSecret(state: ClusterState, namespace: string, name: string | undefined): ResolvedSecret {
  if (!name) return { ok: false, reason: 'secretName is not set, so there is no certificate to serve' }
  const key = `${namespace}/${name}`
  const secret = state.secret(namespace, name)
  if (!secret || (!('issues' in secret) && secret.type !== TLS_SECRET_TYPE))
    return { ok: false, reason: `Secret ${key} does not exist (or is not of type kubernetes.io/tls)` }
  if ('issues' in secret) {
    const problem = secret.issues.map(describeIssue).join('; ')
    return { ok: false, reason: `Secret ${key} is invalid: ${problem}`, problem }
  }
  let pem = pemBySecret.get(secret)
  if (!pem) pemBySecret.set(secret, (pem = certificatePem(secret.data['tls.crt'], secret.data['tls.key'])))
  return pem.ok ? { ok: true, key, pem: pem.pem } : { ok: false, reason: `Secret ${key}: ${pem.reason}`, problem: pem.reason }
}
