import { clusterKeys } from '../../../core/keys/cluster-keys.ts'
import { mapLimited } from '../../../core/map-limited.ts'
import type { Clock } from '../../../core/ports/clock.ts'
import type { ObjectStore } from '../../../core/ports/object-store.ts'
import { originAllowed } from '../../../core/registry/agent-origins.ts'
import { AGENTS_PER_CLUSTER } from '../../../core/registry/agent-retention.ts'
import type { ClusterRecord } from '../../../core/registry/cluster-record.ts'
import type { Metrics } from './metrics.ts'
import { agentsOf } from './agent-reports.ts'

/** How long the agents' addresses are trusted before they are read from storage again. */
const REFRESH_MS = 30_000
/** An agent that has not reported for this long (it heartbeats every minute) is taken as gone. */
const SILENT_MS = 3 * 60_000
const TIMEOUT_MS = 2_000
/** Agents called at once after a commit: a full cluster's pushes take turns instead of opening hundreds of connections together. */
export const PUSH_CONCURRENCY = 16

/**
 * Tells a cluster's agents of a new generation the moment it is committed (`POST <url>/notify`),
 * so that they need not wait for their next poll. Only agents that reported lately, at a URL on
 * an origin the cluster's record allows, are called, a few at a time; the push carries no authority
 * (an agent reads and verifies HEAD itself), follows no redirect, and gives up after two seconds.
 */
export class AgentPush {
  /** Per cluster, each agent's address, the longest silent first (as storage does, at most AGENTS_PER_CLUSTER). */
  private readonly agents = new Map<string, { readAt: number; urls: Map<string, { url: string; reportedAt: number }> }>()
  /** The manifest last pushed per cluster: requests committed together push their generation once. */
  private readonly pushed = new Map<string, string>()

  constructor(
    private readonly store: ObjectStore,
    private readonly metrics: Metrics,
    private readonly clock: Clock,
    private readonly fetcher: typeof fetch = fetch,
  ) {}

  /** An agent reported: keep its address current without waiting for the next read. */
  heard(cluster: string, pod: string, url: string | null | undefined): void {
    const known = this.agents.get(cluster)
    if (!known) return
    known.urls.delete(pod)
    if (!url) return
    known.urls.set(pod, { url, reportedAt: this.clock.now().getTime() })
    if (known.urls.size > AGENTS_PER_CLUSTER) known.urls.delete(known.urls.keys().next().value!)
  }

  async push(record: ClusterRecord, head: { generation: number; manifest: string }): Promise<void> {
    if (record.agentOrigins.length === 0 || this.pushed.get(record.id) === head.manifest) return
    this.pushed.set(record.id, head.manifest)
    const now = this.clock.now().getTime()
    const urls = [...(await this.addresses(record.id)).values()].filter(
      ({ url, reportedAt }) => now - reportedAt < SILENT_MS && originAllowed(record.agentOrigins, url),
    )
    await mapLimited(urls, PUSH_CONCURRENCY, async ({ url }) => {
      const outcome = await this.fetcher(`${url.replace(/\/+$/, '')}/notify`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(head),
        redirect: 'manual',
        signal: AbortSignal.timeout(TIMEOUT_MS),
      }).then(
        async (response) => {
          await response.body?.cancel()
          return response.ok ? 'delivered' : 'refused'
        },
        () => 'failed',
      )
      this.metrics.count('hapedge_agent_pushes_total', 'Pushes of a new generation to agents, by cluster and outcome.', { cluster: record.id, outcome })
    })
  }

  private async addresses(cluster: string) {
    const now = this.clock.now().getTime()
    const known = this.agents.get(cluster)
    if (known && now - known.readAt < REFRESH_MS) return known.urls
    const reports = await agentsOf(this.store, clusterKeys(cluster).root, this.clock.now())
    const urls = new Map(
      reports
        .flatMap((report) => (report.notifyUrl ? [[report.pod, { url: report.notifyUrl, reportedAt: Date.parse(report.reportedAt) }] as const] : []))
        .sort(([, a], [, b]) => a.reportedAt - b.reportedAt),
    )
    this.agents.set(cluster, { readAt: now, urls })
    return urls
  }
}
