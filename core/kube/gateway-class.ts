import { z } from 'zod'
import { clusterMetadata } from './metadata.ts'

export const GATEWAY_API = 'gateway.networking.k8s.io'

/** A GatewayClass: hapedge serves the Gateways of the classes whose controllerName is the cluster's `gateway-controller` setting. */
export const gatewayClass = z.object({
  apiVersion: z.literal(`${GATEWAY_API}/v1`),
  kind: z.literal('GatewayClass'),
  metadata: clusterMetadata.pick({ name: true, creationTimestamp: true }),
  spec: z.object({ controllerName: z.string().min(1).max(253) }),
})

export type GatewayClass = z.infer<typeof gatewayClass>
