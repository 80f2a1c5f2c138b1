import type { AgentStatus } from './agent.ts'
import type { SourceOptions } from './pull-generation.ts'

const HEARTBEAT_MS = 60_000

/**
 * Tells the function what this agent's HAProxy runs, when that changes and once a minute
 * otherwise, so the cluster's status shows every pod's generation and last error; and where
 * it takes pushes, when it listens.
 */
export function statusReporter(source: SourceOptions, pod: string, notifyUrl?: string): (status: AgentStatus) => Promise<void> {
  let last = ''
  let sentAt = 0
  return async (status) => {
    const body = JSON.stringify({ ...status, notifyUrl: notifyUrl ?? null })
    if (body === last && Date.now() - sentAt < HEARTBEAT_MS) return
    const response = await (source.fetcher ?? fetch)(`${source.source}/v1/clusters/${source.cluster}/agents/${pod}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${source.token}`, 'content-type': 'application/json' },
      body,
    })
    if (!response.ok) throw new Error(`reporting status: ${response.status} ${await response.text()}`)
    last = body
    sentAt = Date.now()
  }
}
