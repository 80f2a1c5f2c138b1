import { VIEW_WARNINGS, type ClusterViewAnswer } from '../../../core/api/fleet-answers.ts'
import type { Assert, Same } from '../../../core/api/same-type.ts'
import { clusterKeys } from '../../../core/keys/cluster-keys.ts'
import type { PinSummary } from '../../../core/reading/head.ts'
import { mapLimited } from '../../../core/map-limited.ts'
import { clusterOverview, OverviewCache, type ClusterOverview } from '../../../core/fleet/cluster-overview.ts'
import type { AnnotationWarning } from '../../../core/model/ingress-annotations.ts'
import type { Rejection } from '../../../core/model/rejection.ts'
import { NodeCache } from '../../../core/tree/node-cache.ts'
import type { TreeContext } from '../../../core/tree/tree.ts'
import type { ClusterRecord } from '../../../core/registry/cluster-record.ts'
import { agentSummaries, type AgentSummary } from './agent-reports.ts'
import type { AppEnv } from '../app-env.ts'
import { lastEventAt } from './last-event.ts'

/** Clusters read at once for the fleet view: enough to hide storage latency, few enough to be gentle on it. */
const CONCURRENCY = 16

/** A cluster as the admin sees it (`GET /v1/fleet` and the fleet page): what it serves, refuses, and how far its agents run behind. */
export interface ClusterView {
  id: string
  ingressClass: string
  removed: boolean
  generation: number | null
  manifest: string | null
  committedAt: string | null
  lastEventAt: string | null
  pinned: PinSummary | null
  /** `ignored`: Ingresses not served because of their class (null until the first write after an upgrade counts them). */
  counts: ClusterOverview['counts'] & { rejected: number; warnings: number }
  /** Only in one cluster's view. */
  rejected?: Rejection[]
  /** Only in one cluster's view: the first VIEW_WARNINGS. */
  warnings?: AnnotationWarning[]
  converged: boolean
  agentsBehind: number
  agents: AgentSummary[]
}

/** The view is what `GET /v1/fleet` answers: a field added to one and not the other fails to compile. */
export type ClusterViewIsAnswer = Assert<Same<ClusterView, ClusterViewAnswer>>

/**
 * The node cache a fleet view reads through: the cluster's own when this process keeps it, else
 * a small one of its own, so that a view of every cluster never pushes the writers' caches out.
 */
function readingContext(env: AppEnv, cluster: string): TreeContext {
  return env.caches.peek(cluster) ?? { nodes: new NodeCache(8 * 1024 * 1024), hash: env.hash }
}

/**
 * The fleet's views, shared by the JSON API and the page. Each keeps its own cache of overviews,
 * keyed by HEAD's generation, manifest and snapshot: a cluster that did not change costs one HEAD read.
 */
export function fleetViews(env: AppEnv) {
  const overviews = new OverviewCache()

  const view = async (record: ClusterRecord, detail: boolean): Promise<ClusterView> => {
    const keys = clusterKeys(record.id)
    const [overview, lastEvent] = await Promise.all([
      clusterOverview(env.store, record.id, () => readingContext(env, record.id), overviews),
      lastEventAt(env.store, keys),
    ])
    const agents = await agentSummaries(env.store, keys.root, overview ?? null, env.clock.now())
    const rejected = overview?.rejected ?? []
    const warnings = overview?.warnings ?? []
    return {
      id: record.id,
      ingressClass: record.ingressClass,
      removed: record.removedAt !== undefined,
      generation: overview?.generation ?? null,
      manifest: overview?.manifest ?? null,
      committedAt: overview?.committedAt ?? null,
      lastEventAt: lastEvent,
      pinned: overview?.pinned ?? null,
      counts: {
        ingresses: 0,
        hosts: 0,
        backends: 0,
        ignored: { otherClass: 0, noDefaultClass: 0 },
        ...overview?.counts,
        rejected: rejected.length,
        warnings: warnings.length,
      },
      ...(detail ? { rejected, warnings: warnings.slice(0, VIEW_WARNINGS) } : {}),
      converged: agents.length > 0 && agents.every((agent) => agent.behind === 0),
      agentsBehind: agents.filter((agent) => agent.behind !== 0).length,
      agents,
    }
  }

  return {
    /** Every registered cluster (removed ones too, marked), in the registry's order. */
    all: async (): Promise<ClusterView[]> => mapLimited(await env.registry.list(), CONCURRENCY, (record) => view(record, false)),
    /** One cluster, with its rejected objects. */
    one: (record: ClusterRecord): Promise<ClusterView> => view(record, true),
  }
}
