import { z } from 'zod'
import { agentReport } from '../registry/agent-report.ts'

/** `POST …/agents/{pod}` answers (not strict as the report is: a newer server may add fields) the report as stored, with what the agent should know (`warnings`: no push will come, say). */
export const agentReportAnswer = z.object({
  ...agentReport.shape,
  pod: z.string(),
  reportedAt: z.string(),
  warnings: z.array(z.string()).optional(),
})

/** `GET …/agents`: every agent that reported lately, and how many generations behind HEAD each is. */
export const agentsAnswer = z.object({
  generation: z.number().int().min(1).nullable(),
  agents: z.array(agentReportAnswer.extend({ behind: z.number().int().nullable() })),
})

export type AgentReportAnswer = z.infer<typeof agentReportAnswer>
export type AgentsAnswer = z.infer<typeof agentsAnswer>
