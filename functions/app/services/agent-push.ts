import { clusterKeys } from '../../../core/keys/cluster-keys.ts'
import { mapLimited } from '../../../core/map-limited.ts'
import type { Clock } from '../../../core/ports/clock.ts'
import type { ObjectStore } from '../../../core/ports/object-store.ts'
import { originAllowed } from '../../../core/registry/agent-origins.ts'
import { AGENTS_PER_CLUSTER } from '../../../core/registry/agent-retention.ts'
import type { ClusterRecord } from '../../../core/registry/cluster-record.ts'
import type { Metrics } from './metrics.ts'
import { ListedReports } from './agent-reports.ts'

/** An agent that has not reported for this long (it heartbeats every minute) is taken as gone. */
const SILENT_MS = 3 * 60_000
const TIMEOUT_MS = 2_000
/** Agents called at once after a commit: a full cluster's pushes take turns instead of opening hundreds of connections together. */
export const PUSH_CONCURRENCY = 16

/** Where an agent takes pushes, and when it last reported. */
export interface AgentAddress {
  url: string
  reportedAt: number
}

/**
 * Tells a cluster's agents of a new generation the moment it is committed (`POST <url>/notify`),
 * so that they need not wait for their next poll. Only agents that reported lately, at a URL on
 * an origin the cluster's record allows, are called, a few at a time; the push carries no authority
 * (an agent reads and verifies HEAD itself), follows no redirect, and gives up after two seconds.
 */
export class AgentPush {
  /** Per cluster, its agents' reports as last listed: read from the store at each push, so a report any replica stored counts. */
  private readonly reports = new Map<string, ListedReports>()
  /**
   * The generation last pushed per cluster: requests committed together push it once. By number, not
   * manifest alone: a generation may bring back the files of the one this process pushed last while
   * another replica committed and pushed others in between.
   */
  private readonly pushed = new Map<string, string>()

  constructor(
    private readonly store: ObjectStore,
    private readonly metrics: Metrics,
    private readonly clock: Clock,
    private readonly fetcher: typeof fetch = fetch,
  ) {}

  /**
   * The cluster's agents, listed from now on: a write starts this beside its commit and hands it to the push, so that
   * the agents hear of the generation as HEAD names it, not after a listing (on local disk a directory read and the
   * reread of each report that changed since, some 4 ms). Undefined when the cluster takes no pushes.
   */
  listAgents(record: ClusterRecord): Promise<AgentAddress[]> | undefined {
    if (record.agentOrigins.length === 0) return undefined
    const listed = this.addresses(record.id)
    // A listing that failed is made again by the push; one whose push never comes (nothing committed) is dropped.
    listed.catch(() => undefined)
    return listed
  }

  /** Calls the agents of `listed` (listAgents'), or of a listing made now. */
  async push(record: ClusterRecord, head: { generation: number; manifest: string }, listed?: Promise<AgentAddress[]>): Promise<void> {
    const generation = `${head.generation} ${head.manifest}`
    if (record.agentOrigins.length === 0 || this.pushed.get(record.id) === generation) return
    this.pushed.set(record.id, generation)
    const now = this.clock.now().getTime()
    const addresses = (await listed?.catch(() => undefined)) ?? (await this.addresses(record.id))
    const urls = addresses.filter(({ url, reportedAt }) => now - reportedAt < SILENT_MS && originAllowed(record.agentOrigins, url))
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

  /** Each agent's address, the longest silent first, at most AGENTS_PER_CLUSTER (as many as storage keeps). */
  private async addresses(cluster: string): Promise<AgentAddress[]> {
    let reports = this.reports.get(cluster)
    if (!reports) this.reports.set(cluster, (reports = new ListedReports(this.store, clusterKeys(cluster).root)))
    return (await reports.current())
      .flatMap((report) => (report.notifyUrl ? [{ url: report.notifyUrl, reportedAt: Date.parse(report.reportedAt) }] : []))
      .sort((a, b) => a.reportedAt - b.reportedAt)
      .slice(-AGENTS_PER_CLUSTER)
  }
}
