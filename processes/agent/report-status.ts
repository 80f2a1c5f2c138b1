import { agentReportAnswer } from '../../core/api/agent-answers.ts'
import { jsonAnswer, parseAnswer } from '../../core/api/parse-answer.ts'
import type { AgentStatus } from './agent.ts'
import type { AgentLog } from './agent-log.ts'
import type { SourceOptions } from './pull-generation.ts'
import type { SignedHeads } from './signed-heads.ts'

const HEARTBEAT_MS = 60_000

export interface ReporterOptions {
  /** Where this agent takes pushes, when it listens. */
  notifyUrl?: string | undefined
  /** Where the function's warnings are said. */
  log?: AgentLog | undefined
  /** The agent's run and the key its pushes are signed with. */
  signed?: SignedHeads | undefined
}

/**
 * Tells the function what this agent's HAProxy runs, when that changes and once a minute
 * otherwise, so the cluster's status shows every pod's generation and last error; and where
 * it takes pushes, when it listens. What the function warns of in its answer (a notifyUrl the
 * cluster's agentOrigins do not allow, so no push comes) is logged when it first says it. With
 * `signed`, it names the agent's run and keeps the key the function answers with for its pushes.
 */
export function statusReporter(source: SourceOptions, pod: string, options: ReporterOptions = {}): (status: AgentStatus) => Promise<void> {
  const { notifyUrl, log = () => {}, signed } = options
  let last = ''
  let sentAt = 0
  let warned = new Set<string>()
  return async (status) => {
    const body = JSON.stringify({ ...status, notifyUrl: notifyUrl ?? null, ...(signed ? { instance: signed.instance } : {}) })
    if (body === last && Date.now() - sentAt < HEARTBEAT_MS) return
    const url = `${source.source}/v1/clusters/${source.cluster}/agents/${pod}`
    const response = await (source.fetcher ?? fetch)(url, {
      method: 'POST',
      headers: { authorization: `Bearer ${source.token}`, 'content-type': 'application/json' },
      body,
    })
    if (!response.ok) throw new Error(`reporting status: ${response.status} ${await response.text()}`)
    const { warnings, pushKey } = parseAnswer(agentReportAnswer, await jsonAnswer(response, `POST ${url}`), `the function's answer to the report (POST ${url})`)
    const now = new Set(warnings)
    for (const warning of now) if (!warned.has(warning)) log(`the function warns: ${warning}`, 'error')
    warned = now
    signed?.use(pushKey)
    last = body
    sentAt = Date.now()
  }
}
