import { z } from 'zod'
import { annotations, dnsLabel, isClusterIp, portNumber } from '../syntax/fields.ts'
import { namespacedMetadata } from './metadata.ts'

/** The Service annotation whose lines go into every backend rendered for the Service, when the cluster allows snippets. */
export const BACKEND_SNIPPET = 'hapedge.io/backend-config-snippet'

export const servicePort = z.object({
  name: dnsLabel.optional(),
  port: portNumber,
  protocol: z.enum(['TCP', 'UDP', 'SCTP']).optional(),
})

/** Of a Service's annotations only the snippet is kept (the snapshot holds what hapedge reads); it is checked where it is rendered. */
const serviceAnnotations = annotations.nullish().transform((all) => {
  const snippet = all?.[BACKEND_SNIPPET]
  return snippet === undefined ? undefined : { [BACKEND_SNIPPET]: snippet }
})

export const service = z.object({
  apiVersion: z.literal('v1'),
  kind: z.literal('Service'),
  metadata: namespacedMetadata.pick({ name: true, namespace: true }).extend({ annotations: serviceAnnotations }),
  spec: z.object({
    type: z.enum(['ClusterIP', 'NodePort', 'LoadBalancer', 'ExternalName']).optional(),
    ports: z.array(servicePort).max(1000).optional(),
    /** Read for service-upstream (the one server of such a backend). */
    clusterIP: z.string().refine(isClusterIp, 'must be an IP address or "None"').optional(),
  }),
})

export type Service = z.infer<typeof service>
export type ServicePort = z.infer<typeof servicePort>
