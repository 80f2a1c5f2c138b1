import { z } from 'zod'
import { namespacedMetadata } from './metadata.ts'

export const TLS_SECRET_TYPE = 'kubernetes.io/tls'

const BASE64 = /^[A-Za-z0-9+/\r\n]*={0,2}[\r\n]*$/
const MAX_BASE64 = 1 << 20

const base64 = z.string().max(MAX_BASE64, 'must be at most 1 MiB').regex(BASE64, 'must be base64')

/** Whether a value passes the schema of `tls.crt` and `tls.key` (for fast-read.ts). */
export const isBase64Field = (value: unknown): value is string => typeof value === 'string' && value.length <= MAX_BASE64 && BASE64.test(value)

/** Only `kubernetes.io/tls` Secrets are read; their PEM content is checked where a TLS entry uses them. */
export const tlsSecret = z.object({
  apiVersion: z.literal('v1'),
  kind: z.literal('Secret'),
  type: z.literal(TLS_SECRET_TYPE),
  metadata: namespacedMetadata.pick({ name: true, namespace: true }),
  /** `ca.crt`: a CA bundle that verifies backends (proxy-ssl-secret), when the Secret names one. */
  data: z.object({ 'tls.crt': base64, 'tls.key': base64, 'ca.crt': base64.optional() }),
})

export type TlsSecret = z.infer<typeof tlsSecret>
