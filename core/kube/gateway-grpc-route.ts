import { z } from 'zod'
import { hostname } from '../syntax/fields.ts'
import { GATEWAY_API } from './gateway-class.ts'
import { httpBackendRef, parentReference } from './gateway-http-route.ts'
import { namespacedMetadata } from './metadata.ts'

/** A GRPCRoute rule's match as written: checked where it is read, since what hapedge does not honour is reported, not refused as malformed. */
const grpcRouteMatch = z.object({
  method: z
    .object({
      type: z.string().max(63).optional(),
      service: z.string().max(1024).optional(),
      method: z.string().max(1024).optional(),
    })
    .optional(),
  headers: z.array(z.unknown()).max(16).optional(),
})

const grpcRouteRule = z.object({
  name: z.string().max(253).optional(),
  matches: z.array(grpcRouteMatch).max(64).optional(),
  backendRefs: z.array(httpBackendRef).max(16).optional(),
  /** Kept to be reported: what hapedge does not honour is never dropped silently. */
  filters: z.array(z.unknown()).max(16).optional(),
  sessionPersistence: z.unknown().optional(),
})

/** A GRPCRoute (`gateway.networking.k8s.io/v1`): gRPC requests matched on service and method, sent to Services. */
export const grpcRoute = z.object({
  apiVersion: z.literal(`${GATEWAY_API}/v1`),
  kind: z.literal('GRPCRoute'),
  metadata: namespacedMetadata.pick({ name: true, namespace: true, creationTimestamp: true }),
  spec: z.object({
    parentRefs: z.array(parentReference).max(32).optional(),
    hostnames: z.array(hostname).max(16).optional(),
    rules: z.array(grpcRouteRule).max(16).optional(),
  }),
})

export type GrpcRoute = z.infer<typeof grpcRoute>
