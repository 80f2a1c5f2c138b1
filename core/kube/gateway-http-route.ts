import { z } from 'zod'
import { dnsLabel, hostname, objectName, portNumber } from '../syntax/fields.ts'
import { GATEWAY_API } from './gateway-class.ts'
import { namespacedMetadata } from './metadata.ts'

export const parentReference = z.object({
  group: z.string().max(253).optional(),
  kind: z.string().max(63).optional(),
  namespace: dnsLabel.optional(),
  name: objectName,
  sectionName: dnsLabel.optional(),
  port: portNumber.optional(),
})

/**
 * A path match as written: its value is checked where it is read (gateway-route-rules.ts), since a
 * RegularExpression is reported as not honoured rather than as a malformed route.
 */
const pathMatch = z.object({
  type: z.string().max(63).optional(),
  value: z.string().max(1024, 'must be at most 1024 characters').optional(),
})

/**
 * A header or query parameter match as written: its type, name and value are checked where they
 * are read (gateway-conditions.ts), which reports what it does not serve with the field's path.
 */
export const valueMatch = z.object({
  type: z.string().max(63).optional(),
  name: z.string().max(256),
  value: z.string().max(4096),
})

const routeMatch = z.object({
  path: pathMatch.optional(),
  headers: z.array(valueMatch).max(16).optional(),
  queryParams: z.array(valueMatch).max(16).optional(),
  method: z.string().max(63).optional(),
})

export const httpBackendRef = z.object({
  group: z.string().max(253).optional(),
  kind: z.string().max(63).optional(),
  name: dnsLabel,
  namespace: dnsLabel.optional(),
  port: portNumber.optional(),
  weight: z.number().int('must be an integer').min(0, 'must be 0 to 1000000').max(1_000_000, 'must be 0 to 1000000').optional(),
  filters: z.array(z.unknown()).max(16).optional(),
})

const routeRule = z.object({
  name: z.string().max(253).optional(),
  matches: z.array(routeMatch).max(64).optional(),
  backendRefs: z.array(httpBackendRef).max(16).optional(),
  /** Kept to be reported: what hapedge does not honour (gateway-route-rules.ts) is never dropped silently. */
  filters: z.array(z.unknown()).max(16).optional(),
  timeouts: z.unknown().optional(),
  retry: z.unknown().optional(),
  sessionPersistence: z.unknown().optional(),
})

/** A route kind of `gateway.networking.k8s.io/v1` (HTTPRoute, GRPCRoute): its parents, hostnames and rules of its own shape. */
export function gatewayRoute<Kind extends string, Rule extends z.ZodType>(kind: Kind, rule: Rule, maxRules: number) {
  return z.object({
    apiVersion: z.literal(`${GATEWAY_API}/v1`),
    kind: z.literal(kind),
    metadata: namespacedMetadata.pick({ name: true, namespace: true, creationTimestamp: true }),
    spec: z.object({
      parentRefs: z.array(parentReference).max(32).optional(),
      hostnames: z.array(hostname).max(16).optional(),
      rules: z.array(rule).max(maxRules).optional(),
    }),
  })
}

export const httpRoute = gatewayRoute('HTTPRoute', routeRule, 64)

export type HttpRoute = z.infer<typeof httpRoute>
export type HttpRouteRule = z.infer<typeof routeRule>
export type HttpRouteMatch = z.infer<typeof routeMatch>
export type HttpBackendRef = z.infer<typeof httpBackendRef>
export type ParentReference = z.infer<typeof parentReference>
