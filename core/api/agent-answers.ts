import { z } from 'zod'
import { agentReport } from '../registry/agent-report.ts'

/** What the function says of a stored report: the report, its pod, when, and what the agent should know (`warnings`: no push will come, say). */
const storedReport = z.object({
  ...agentReport.shape,
  pod: z.string(),
  reportedAt: z.string(),
  warnings: z.array(z.string()).optional(),
})

/**
 * `POST …/agents/{pod}` answers (not strict as the report is: a newer server may add fields) the report as stored, and,
 * to a run that named itself (`instance`) where pushes are allowed and the deployment signs, the key its pushes are signed with.
 */
export const agentReportAnswer = storedReport.extend({ pushKey: z.string().optional() })

/** `GET …/agents`: every agent that reported lately, and how many generations behind HEAD each is. */
export const agentsAnswer = z.object({
  generation: z.number().int().min(1).nullable(),
  agents: z.array(storedReport.extend({ behind: z.number().int().nullable() })),
})

export type AgentReportAnswer = z.infer<typeof agentReportAnswer>
export type AgentsAnswer = z.infer<typeof agentsAnswer>
