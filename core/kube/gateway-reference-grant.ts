import { z } from 'zod'
import { dnsLabel, objectName } from '../syntax/fields.ts'
import { GATEWAY_API } from './gateway-class.ts'
import { namespacedMetadata } from './metadata.ts'

/** A ReferenceGrant (still `v1beta1` in the Gateway API's standard channel): who may refer to objects of its namespace. */
export const referenceGrant = z.object({
  apiVersion: z.literal(`${GATEWAY_API}/v1beta1`),
  kind: z.literal('ReferenceGrant'),
  metadata: namespacedMetadata.pick({ name: true, namespace: true }),
  spec: z.object({
    from: z
      .array(z.object({ group: z.string().max(253), kind: z.string().min(1).max(63), namespace: dnsLabel }))
      .min(1)
      .max(16),
    to: z
      .array(z.object({ group: z.string().max(253), kind: z.string().min(1).max(63), name: objectName.optional() }))
      .min(1)
      .max(16),
  }),
})

export type ReferenceGrant = z.infer<typeof referenceGrant>
