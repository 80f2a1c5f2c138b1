import { z } from 'zod'
import { clusterMetadata } from './metadata.ts'

/** A Namespace, trimmed to its name and labels: what a Gateway listener's `allowedRoutes` Selector reads. */
export const namespace = z.object({
  apiVersion: z.literal('v1'),
  kind: z.literal('Namespace'),
  metadata: clusterMetadata.pick({ name: true, labels: true }),
})

export type Namespace = z.infer<typeof namespace>
