import { z } from 'zod'
import { agentReport } from '../registry/agent-report.ts'
import { clusterRecord, type publicRecord } from '../registry/cluster-record.ts'
import { kubernetesAccess } from '../registry/kubernetes-access.ts'
import type { Assert, Same } from './same-type.ts'

/** A cluster's record as the admin API shows it (`GET`, `DELETE /v1/clusters/{id}`): no token digest, no key, no sealed credentials. */
export const clusterRecordAnswer = z.object({
  ...clusterRecord.omit({ tokenSha256: true, previousTokenSha256: true, dataKey: true, kubernetes: true }).shape,
  kubernetes: kubernetesAccess.pick({ server: true, resource: true }).optional(),
})

/** `POST /v1/clusters` and `POST …/{id}/token`: the record and its new token, shown this once. */
export const registeredAnswer = clusterRecordAnswer.extend({ token: z.string() })

/** `PATCH /v1/clusters/{id}`: the record as changed, and what rendering the cluster's files under it committed. */
export const settingsAnswer = clusterRecordAnswer.extend({
  generation: z.number().int().min(1).nullable(),
  committed: z.boolean(),
  reload: z.boolean(),
  reasons: z.array(z.string()),
})

/** An agent in the admin answers: what it runs, how many generations behind HEAD (0 once it runs HEAD's manifest), when it last reported. */
export const agentSummaryAnswer = z.object({
  pod: z.string(),
  generation: agentReport.shape.generation,
  behind: z.number().int().nullable(),
  applied: agentReport.shape.applied,
  reportedAt: z.string(),
  lastError: z.string().nullable(),
  warnings: z.array(z.string()),
})

/** `GET /v1/clusters`: every registered cluster, its generation, its last event and its agents. */
export const clustersAnswer = z.object({
  clusters: z.array(
    clusterRecordAnswer.extend({
      generation: z.number().int().min(1).nullable(),
      lastEventAt: z.string().nullable(),
      agents: z.array(agentSummaryAnswer),
    }),
  ),
})

export type ClusterRecordAnswer = z.infer<typeof clusterRecordAnswer>
export type RegisteredAnswer = z.infer<typeof registeredAnswer>
export type SettingsAnswer = z.infer<typeof settingsAnswer>
export type AgentSummaryAnswer = z.infer<typeof agentSummaryAnswer>
export type ClustersAnswer = z.infer<typeof clustersAnswer>

export type ClusterRecordAnswerIsPublicRecord = Assert<Same<ClusterRecordAnswer, ReturnType<typeof publicRecord>>>
