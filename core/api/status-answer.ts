import { z } from 'zod'
import type { HAProxyCfgStatus } from '../kube/haproxycfg.ts'
import type { Assert, Same } from './same-type.ts'

const count = z.number().int().min(0)

/** `GET …/status`: the `HAProxyCfg` status of the newest generation, as the function writes it. */
export const statusAnswer = z.object({
  generation: z.number().int().min(1),
  manifest: z.string(),
  shortManifest: z.string(),
  committedAt: z.string(),
  fileCount: count,
  totalBytes: count,
  files: z.array(z.object({ path: z.string(), sha256: z.string(), size: count, chunked: z.boolean() })),
  reload: z.boolean(),
  reloadReasons: z.array(z.string()),
  rejectedCount: count,
  ignored: z.object({ otherClass: count, noDefaultClass: count }).optional(),
  rejected: z.array(z.object({ object: z.string(), reason: z.string() })),
  // Defaults, so a status from a version before warnings still parses.
  warningCount: count.default(0),
  warnings: z.array(z.object({ object: z.string(), annotation: z.string(), reason: z.string() })).default([]),
  conditions: z.array(
    z.object({
      type: z.enum(['Committed', 'Converged', 'Degraded', 'Pinned']),
      status: z.enum(['True', 'False', 'Unknown']),
      reason: z.string(),
      message: z.string(),
      lastTransitionTime: z.string(),
      observedGeneration: z.number().int(),
    }),
  ),
  pods: z.array(
    z.object({
      pod: z.string(),
      generation: z.number().int().optional(),
      manifest: z.string().optional(),
      applied: z.enum(['runtime', 'reload', 'written']).optional(),
      appliedAt: z.string().optional(),
      lastError: z.string().optional(),
    }),
  ),
})

export type StatusAnswer = z.infer<typeof statusAnswer>

export type StatusAnswerIsHAProxyCfgStatus = Assert<Same<StatusAnswer, HAProxyCfgStatus>>
