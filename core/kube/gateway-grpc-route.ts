import { z } from 'zod'
import { gatewayRoute, httpBackendRef, valueMatch } from './gateway-http-route.ts'

/** A GRPCRoute rule's match as written: checked where it is read (gateway-grpc-rules.ts), since what hapedge does not honour is reported, not refused as malformed. */
const grpcRouteMatch = z.object({
  method: z
    .object({
      type: z.string().max(63).optional(),
      service: z.string().max(1024).optional(),
      method: z.string().max(1024).optional(),
    })
    .optional(),
  headers: z.array(valueMatch).max(16).optional(),
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
export const grpcRoute = gatewayRoute('GRPCRoute', grpcRouteRule, 16)

export type GrpcRoute = z.infer<typeof grpcRoute>
export type GrpcRouteRule = z.infer<typeof grpcRouteRule>
export type GrpcRouteMatch = z.infer<typeof grpcRouteMatch>
