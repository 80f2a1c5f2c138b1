import { z } from 'zod'
import { objectRef } from '../annotations/values.ts'
import { formatPath } from '../issues.ts'
import { describeRef } from '../kube/objects.ts'
import type { ClusterState } from './cluster-state.ts'
import type { Rejection } from './rejection.ts'
import { resolveTlsSecret } from './tls-secret.ts'

/**
 * The settings ConfigMap's `default-ssl-certificate` (ingress-nginx's `--default-ssl-certificate`
 * flag, as a setting): the TLS Secret `namespace/name` served to the SNI names no Ingress claims and
 * when no SNI is sent. Stored as `namespace/name`.
 */
export const defaultCertificateSetting = objectRef.transform((ref, ctx) => {
  if (ref.namespace !== undefined) return `${ref.namespace}/${ref.name}`
  ctx.addIssue({ code: 'custom', message: `"${ref.name}" must name its namespace too: "namespace/name"` })
  return z.NEVER
})

export type DefaultCertificate = { secret: string; pem: string } | { secret?: string; rejections: Rejection[] }

/**
 * The default certificate the settings name, or why none is served: then HTTPS asks for a name an
 * Ingress claims (strict-sni), so that no tenant's certificate is ever shown for another's name.
 */
export function defaultCertificateOf(secret: string | undefined, state: ClusterState): DefaultCertificate {
  if (secret === undefined) return { rejections: [] }
  const [namespace = '', name = ''] = secret.split('/')
  const resolved = resolveTlsSecret(state, namespace, name)
  if (resolved.ok) return { secret, pem: resolved.pem }
  const object = `ConfigMap ${state.options.configMap}`
  const reason = `${formatPath(['data', 'default-ssl-certificate'])}: ${resolved.reason}; no certificate is served to names no Ingress claims (the handshake is refused)`
  const rejections: Rejection[] = [{ object, reason }]
  // The Secret is told too, as a TLS entry's is (derive-host.ts), so that a write of the Secret alone answers why.
  if (resolved.problem) rejections.push({ object: describeRef({ kind: 'Secret', namespace, name }), reason: resolved.problem })
  return { secret, rejections }
}
