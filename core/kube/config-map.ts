import { z } from 'zod'
import { namespacedMetadata } from './metadata.ts'

export const configMap = z.object({
  apiVersion: z.literal('v1'),
  kind: z.literal('ConfigMap'),
  metadata: namespacedMetadata.pick({ name: true, namespace: true }),
  data: z.record(z.string().max(253), z.string().max(4096)).nullable().optional(),
})

export type ConfigMap = z.infer<typeof configMap>
