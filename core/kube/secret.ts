import { z } from 'zod'
import { namespacedMetadata } from './metadata.ts'

export const TLS_SECRET_TYPE = 'kubernetes.io/tls'

const base64 = z
  .string()
  .max(1 << 20, 'must be at most 1 MiB')
  .regex(/^[A-Za-z0-9+/\r\n]*={0,2}[\r\n]*$/, 'must be base64')

/** Only `kubernetes.io/tls` Secrets are read; their PEM content is checked where a TLS entry uses them. */
export const tlsSecret = z.object({
  apiVersion: z.literal('v1'),
  kind: z.literal('Secret'),
  type: z.literal(TLS_SECRET_TYPE),
  metadata: namespacedMetadata.pick({ name: true, namespace: true }),
  data: z.object({ 'tls.crt': base64, 'tls.key': base64 }),
})

export type TlsSecret = z.infer<typeof tlsSecret>
