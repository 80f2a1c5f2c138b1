import { z } from 'zod'
import type { RoutesPage } from '../fleet/cluster-routes.ts'
import type { Assert, Same } from './same-type.ts'

const server = z.object({ address: z.string(), port: z.number().int(), family: z.enum(['IPv4', 'IPv6']) })

/** `GET …/routes`: a page of what the current generation serves (see the README's HTTP API). */
export const routesAnswer = z.object({
  generation: z.number().int().min(1),
  manifest: z.string(),
  routes: z.array(
    z.object({
      host: z.string(),
      match: z.enum(['Exact', 'Prefix', 'Regex']),
      path: z.string(),
      backend: z.string(),
      service: z.object({ namespace: z.string(), name: z.string(), port: z.union([z.number(), z.string()]) }),
      servers: z.array(server),
      owner: z.string(),
      tlsSecret: z.string().nullable(),
      redirectToHttps: z.boolean(),
    }),
  ),
  next: z.string().nullable(),
  defaultBackend: z
    .object({ backend: z.string(), servers: z.array(server) })
    .nullable()
    .optional(),
})

export type RoutesAnswer = z.infer<typeof routesAnswer>

export type RoutesAnswerIsRoutesPage = Assert<Same<Omit<RoutesAnswer, 'generation' | 'manifest'>, RoutesPage>>
