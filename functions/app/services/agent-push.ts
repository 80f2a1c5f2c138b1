import { PUSH_DELTA_BYTES, type PushBody } from '../../../core/api/push-body.ts'
import type { PushedHead } from '../../../core/crypto/push-signature.ts'
import { clusterKeys } from '../../../core/keys/cluster-keys.ts'
import { mapLimited } from '../../../core/map-limited.ts'
import type { Clock } from '../../../core/ports/clock.ts'
import type { ObjectStore } from '../../../core/ports/object-store.ts'
import { generationDelta } from '../../../core/reading/generation-delta.ts'
import { NodeLoader } from '../../../core/reading/node-loader.ts'
import { originAllowed } from '../../../core/registry/agent-origins.ts'
import { AGENTS_PER_CLUSTER } from '../../../core/registry/agent-retention.ts'
import type { ClusterRecord } from '../../../core/registry/cluster-record.ts'
import type { Metrics } from './metrics.ts'
import type { NodeCaches } from './node-caches.ts'
import type { PushKeys } from './push-keys.ts'
import { ListedReports } from './agent-reports.ts'

/** An agent that has not reported for this long (it heartbeats every minute) is taken as gone. */
const SILENT_MS = 3 * 60_000
const TIMEOUT_MS = 2_000
/** Agents called at once after a commit: a full cluster's pushes take turns instead of opening hundreds of connections together. */
export const PUSH_CONCURRENCY = 16

/** Where an agent takes pushes, when it last reported, and what it said it runs. */
export interface AgentAddress {
  url: string
  reportedAt: number
  pod: string
  /** The manifest the agent runs, which the blobs pushed to it are counted from. */
  manifest: string | null
  /** The name its run gave itself: with one, and a deployment secret, it is pushed HEAD signed. */
  instance?: string | undefined
}

export interface AgentPushOptions {
  store: ObjectStore
  metrics: Metrics
  clock: Clock
  caches: NodeCaches
  /** Signs pushed heads: absent, agents are told the generation and read HEAD themselves. */
  pushKeys?: PushKeys | undefined
  fetcher?: typeof fetch
}

/**
 * Tells a cluster's agents of a new generation the moment it is committed (`POST <url>/notify`),
 * so that they need not wait for their next poll. Only agents that reported lately, at a URL on
 * an origin the cluster's record allows, are called, a few at a time; a push follows no redirect,
 * and gives up after two seconds. An agent run that named itself in its reports is sent HEAD
 * signed with its push key (PushKeys) and the blobs it lacks, so it need not ask for HEAD; any
 * other is told the generation, which carries no authority: it reads and verifies HEAD itself.
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

  constructor(private readonly options: AgentPushOptions) {}

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
  async push(record: ClusterRecord, head: PushedHead, listed?: Promise<AgentAddress[]>): Promise<void> {
    const generation = `${head.generation} ${head.manifest}`
    if (record.agentOrigins.length === 0 || this.pushed.get(record.id) === generation) return
    this.pushed.set(record.id, generation)
    const now = this.options.clock.now().getTime()
    const addresses = (await listed?.catch(() => undefined)) ?? (await this.addresses(record.id))
    const agents = addresses.filter(({ url, reportedAt }) => now - reportedAt < SILENT_MS && originAllowed(record.agentOrigins, url))
    const bodyFor = this.bodies(record.id, { generation: head.generation, manifest: head.manifest })
    await mapLimited(agents, PUSH_CONCURRENCY, async (agent) => {
      const outcome = await (this.options.fetcher ?? fetch)(`${agent.url.replace(/\/+$/, '')}/notify`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(await bodyFor(agent)),
        redirect: 'manual',
        signal: AbortSignal.timeout(TIMEOUT_MS),
      }).then(
        async (response) => {
          await response.body?.cancel()
          return response.ok ? 'delivered' : 'refused'
        },
        () => 'failed',
      )
      this.options.metrics.count('hapedge_agent_pushes_total', 'Pushes of a new generation to agents, by cluster and outcome.', { cluster: record.id, outcome })
    })
  }

  /**
   * What each agent is sent of `head`: signed, with the blobs it lacks, when its run named itself
   * and this deployment signs; those blobs counted once per manifest the agents run.
   */
  private bodies(cluster: string, head: PushedHead): (agent: AgentAddress) => Promise<PushBody> {
    const { pushKeys, store, caches } = this.options
    const deltas = new Map<string | null, Promise<Record<string, string>>>()
    const blobsSince = (manifest: string | null) => {
      let blobs = deltas.get(manifest)
      if (!blobs) {
        const context = caches.for(cluster)
        const delta = generationDelta(head.manifest, manifest ?? undefined, new NodeLoader(store, clusterKeys(cluster), context), context, PUSH_DELTA_BYTES)
        // The blobs are a hint (the agent fetches what it lacks): a manifest collected since it reported leaves them out.
        blobs = delta.then(Object.fromEntries, () => ({}))
        deltas.set(manifest, blobs)
      }
      return blobs
    }
    return async ({ pod, instance, manifest }) => {
      if (!pushKeys || instance === undefined) return head
      const signature = pushKeys.sign({ cluster, pod, instance }, head)
      return { ...head, blobs: await blobsSince(manifest), signature }
    }
  }

  /** Each agent's address, the longest silent first, at most AGENTS_PER_CLUSTER (as many as storage keeps). */
  private async addresses(cluster: string): Promise<AgentAddress[]> {
    let reports = this.reports.get(cluster)
    if (!reports) this.reports.set(cluster, (reports = new ListedReports(this.options.store, clusterKeys(cluster).root)))
    return (await reports.current())
      .flatMap(({ notifyUrl, reportedAt, pod, manifest, instance }) =>
        notifyUrl ? [{ url: notifyUrl, reportedAt: Date.parse(reportedAt), pod, manifest, instance }] : [],
      )
      .sort((a, b) => a.reportedAt - b.reportedAt)
      .slice(-AGENTS_PER_CLUSTER)
  }
}
