import { z } from 'zod'
import type { GatewayApiStatus } from '../kube/gateway-status.ts'
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

/** `GET …/gateway-status`: the Gateway API status of the newest generation, as the function writes it (`objects` empty before layout 28's first write). */
export const gatewayStatusAnswer = z.object({
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

export type GatewayStatusAnswerIsGatewayApiStatus = Assert<Same<GatewayStatusAnswer, GatewayApiStatus>>
