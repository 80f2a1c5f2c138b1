import { z } from 'zod'
import { portNumber } from '../syntax/fields.ts'
import { httpBackendRef } from './gateway-http-route.ts'

/**
 * An HTTPRoute filter as written (gateway.networking.k8s.io/v1 HTTPRouteFilter). The rule keeps its
 * filters unread (gateway-http-route.ts), so that one hapedge cannot read is reported with its
 * field path rather than making the whole route malformed; gateway-filters.ts reads each with this.
 * Names, values and paths are checked where they are read, against what HAProxy is given.
 */

const header = z.object({ name: z.string().min(1).max(256), value: z.string().max(4096) })

const headerModifier = z.object({
  set: z.array(header).max(16).optional(),
  add: z.array(header).max(16).optional(),
  remove: z.array(z.string().min(1).max(256)).max(16).optional(),
})

const pathModifier = z.object({
  type: z.string().max(63),
  replaceFullPath: z.string().max(1024).optional(),
  replacePrefixMatch: z.string().max(1024).optional(),
})

/** RequestMirror: a Service sent a copy of each request (or `percent`, or `fraction`, of them: experimental since v1.2). */
const requestMirror = z.object({
  backendRef: httpBackendRef.pick({ group: true, kind: true, name: true, namespace: true, port: true }),
  percent: z.number().int('must be an integer').min(0, 'must be 0 to 100').max(100, 'must be 0 to 100').optional(),
  fraction: z
    .object({
      numerator: z.number().int('must be an integer').min(0, 'must be 0 or more').max(1_000_000, 'must be at most 1000000'),
      denominator: z.number().int('must be an integer').min(1, 'must be 1 or more').max(1_000_000, 'must be at most 1000000').optional(),
    })
    .optional(),
})

export const httpRouteFilter = z.object({
  type: z.string().min(1).max(253),
  requestHeaderModifier: headerModifier.optional(),
  responseHeaderModifier: headerModifier.optional(),
  requestRedirect: z
    .object({
      scheme: z.string().max(63).optional(),
      hostname: z.string().max(253).optional(),
      path: pathModifier.optional(),
      port: portNumber.optional(),
      statusCode: z.number().int().optional(),
    })
    .optional(),
  urlRewrite: z.object({ hostname: z.string().max(253).optional(), path: pathModifier.optional() }).optional(),
  requestMirror: requestMirror.optional(),
})

export type HttpRouteFilter = z.infer<typeof httpRouteFilter>
export type HeaderModifier = z.infer<typeof headerModifier>
export type PathModifier = z.infer<typeof pathModifier>
export type RequestMirrorFilter = z.infer<typeof requestMirror>

/** A rule's `timeouts`, Gateway API durations (`1h`, `500ms`, `1m30s`): read in gateway-timeouts.ts. */
export const httpRouteTimeouts = z.object({ request: z.string().max(64).optional(), backendRequest: z.string().max(64).optional() })
