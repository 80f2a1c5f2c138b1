import { agentKey, type AgentReport } from '../../core/registry/agent-report.ts'
import type { ObjectStore } from '../../core/ports/object-store.ts'

/** An agent's last report as stored: what it said, its pod, and when. */
export type StoredReport = AgentReport & { pod: string; reportedAt: string }

/** Every agent's last report for the cluster whose keys start with `clusterRoot`. */
export async function agentsOf(store: ObjectStore, clusterRoot: string): Promise<StoredReport[]> {
  const agents: StoredReport[] = []
  for await (const object of store.list(agentKey(clusterRoot, ''))) {
    const stored = await store.get(object.key)
    if (stored) agents.push(JSON.parse(new TextDecoder().decode(stored.body)) as StoredReport)
  }
  return agents
}

/** An agent as the admin API shows it: what it runs, how many generations it is behind the cluster's, when it last reported. */
export interface AgentSummary {
  pod: string
  generation: number | null
  behind: number | null
  applied: AgentReport['applied']
  reportedAt: string
  lastError: string | null
}

export async function agentSummaries(store: ObjectStore, clusterRoot: string, generation: number | null): Promise<AgentSummary[]> {
  return (await agentsOf(store, clusterRoot)).map(({ pod, generation: runs, applied, reportedAt, lastError }) => ({
    pod,
    generation: runs,
    behind: generation !== null && runs !== null ? generation - runs : null,
    applied,
    reportedAt,
    lastError,
  }))
}
