import { z } from 'zod'
import type { ClusterOverview } from '../fleet/cluster-overview.ts'
import { agentSummaryAnswer } from './cluster-answers.ts'
import { pinSummaryAnswer } from './history-answers.ts'
import type { Assert, Same } from './same-type.ts'

const count = z.number().int().min(0)

const counts = z.object({
  ingresses: count,
  hosts: count,
  backends: count,
  ignored: z.object({ otherClass: count, noDefaultClass: count }).nullable(),
})
const rejection = z.object({ object: z.string(), reason: z.string() })
const warning = z.object({ object: z.string(), annotation: z.string(), reason: z.string() })

/** Warnings one cluster's view lists at most; `counts.warnings` counts them all. */
export const VIEW_WARNINGS = 100

/** What a cluster serves now, as core computes it: the fields a fleet view takes from it. */
const clusterOverview = z.object({
  generation: z.number().int().min(1),
  manifest: z.string(),
  committedAt: z.string().nullable(),
  pinned: pinSummaryAnswer.nullable(),
  counts,
  rejected: z.array(rejection),
  warnings: z.array(warning),
})

/** A cluster in `GET /v1/fleet`: what it serves (null fields before its first generation), refuses, and how far its agents run behind. */
export const clusterViewAnswer = z.object({
  id: z.string(),
  ingressClass: z.string(),
  removed: z.boolean(),
  generation: clusterOverview.shape.generation.nullable(),
  manifest: z.string().nullable(),
  committedAt: z.string().nullable(),
  lastEventAt: z.string().nullable(),
  pinned: pinSummaryAnswer.nullable(),
  // `warnings` defaults, so a view from a version before warnings still parses.
  counts: counts.extend({ rejected: count, warnings: count.default(0) }),
  /** Only in one cluster's view (`GET /v1/fleet/{id}`). */
  rejected: z.array(rejection).optional(),
  /** Only in one cluster's view: the first VIEW_WARNINGS annotations not honoured. */
  warnings: z.array(warning).optional(),
  converged: z.boolean(),
  agentsBehind: count,
  agents: z.array(agentSummaryAnswer),
})

/** `GET /v1/fleet`: every cluster's view, and how long the answer took. */
export const fleetAnswer = z.object({ clusters: z.array(clusterViewAnswer), answeredInMs: z.number().min(0) })

/** `GET /v1/fleet/{id}`: one cluster's view, with its rejected objects. */
export const clusterDetailAnswer = clusterViewAnswer.required({ rejected: true })

export type ClusterViewAnswer = z.infer<typeof clusterViewAnswer>
export type FleetAnswer = z.infer<typeof fleetAnswer>
export type ClusterDetailAnswer = z.infer<typeof clusterDetailAnswer>

export type OverviewIsClusterOverview = Assert<Same<z.infer<typeof clusterOverview>, ClusterOverview>>
