import { z } from 'zod'
import { dnsLabel, portNumber } from './fields.ts'
import { namespacedMetadata } from './metadata.ts'

export const servicePort = z.object({
  name: dnsLabel.optional(),
  port: portNumber,
  protocol: z.enum(['TCP', 'UDP', 'SCTP']).optional(),
})

export const service = z.object({
  apiVersion: z.literal('v1'),
  kind: z.literal('Service'),
  metadata: namespacedMetadata.pick({ name: true, namespace: true }),
  spec: z.object({
    type: z.enum(['ClusterIP', 'NodePort', 'LoadBalancer', 'ExternalName']).optional(),
    ports: z.array(servicePort).max(1000).optional(),
  }),
})

export type Service = z.infer<typeof service>
export type ServicePort = z.infer<typeof servicePort>
