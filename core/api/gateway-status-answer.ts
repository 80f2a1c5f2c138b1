import { z } from 'zod'
import { generation } from '../fleet/fleet-requests.ts'
import type { GatewayApiStatus, GatewayStatusChange } from '../kube/gateway-status.ts'
import type { Assert, Same } from './same-type.ts'

const condition = z.object({
  type: z.string(),
  status: z.enum(['True', 'False', 'Unknown']),
  reason: z.string(),
  message: z.string(),
  lastTransitionTime: z.string(),
  observedGeneration: z.number().int(),
})

const parentRef = z.object({
  group: z.string().optional(),
  kind: z.string().optional(),
  namespace: z.string().optional(),
  name: z.string(),
  sectionName: z.string().optional(),
  port: z.number().int().optional(),
})

/** `GET …/gateway-status?since=`: the generation whose status was written last, to be given only what changed since. */
export const gatewayStatusQuery = z.strictObject({ since: generation.optional() })

/**
 * `GET …/gateway-status`: the Gateway API status of the newest generation (`generation`), as the
 * function writes it (`objects` empty before layout 28's first write). With `removed`, it is
 * what changed since the generation `since` named: the objects whose status changed, and those
 * whose status went; without, it is whole (no `since`, or one no longer retained).
 */
export const gatewayStatusAnswer = z.object({
  generation: z.number().int(),
  removed: z.array(z.string()).optional(),
  controllerName: z.string(),
  objects: z.array(
    z.discriminatedUnion('kind', [
      z.object({ kind: z.literal('GatewayClass'), name: z.string(), status: z.object({ conditions: z.array(condition) }) }),
      z.object({
        kind: z.literal('Gateway'),
        namespace: z.string(),
        name: z.string(),
        status: z.object({
          conditions: z.array(condition),
          listeners: z.array(
            z.object({
              name: z.string(),
              supportedKinds: z.array(z.object({ group: z.string(), kind: z.string() })),
              attachedRoutes: z.number().int().min(0),
              conditions: z.array(condition),
            }),
          ),
        }),
      }),
      z.object({
        kind: z.enum(['HTTPRoute', 'GRPCRoute']),
        namespace: z.string(),
        name: z.string(),
        parents: z.array(z.object({ parentRef, controllerName: z.string(), conditions: z.array(condition) })),
      }),
    ]),
  ),
})

export type GatewayStatusAnswer = z.infer<typeof gatewayStatusAnswer>

export type GatewayStatusAnswerIsGatewayApiStatus = Assert<Same<Omit<GatewayStatusAnswer, 'generation' | 'removed'>, GatewayApiStatus>>
export type GatewayStatusAnswerHoldsAChange = Assert<Same<Required<Omit<GatewayStatusAnswer, 'generation'>>, GatewayStatusChange>>
