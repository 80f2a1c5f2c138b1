import { clusterKeys } from '../keys/cluster-keys.ts'
import { readGenerationRecord } from '../reading/generation-records.ts'
import { pinSummary, type Head, type PinSummary } from '../reading/head.ts'
import { NodeLoader } from '../reading/node-loader.ts'
import { openTrees } from '../reading/open-trees.ts'
import { readHead } from '../reading/read-head.ts'
import { runLoading } from '../reading/run-loading.ts'
import { SnapshotReader, type ClusterCounts } from '../reading/snapshot-reader.ts'
import type { IgnoredIngresses } from '../model/cluster-state.ts'
import type { AnnotationWarning } from '../model/ingress-annotations.ts'
import type { Rejection } from '../model/rejection.ts'
import { committedWarnings } from '../reading/committed-warnings.ts'
import type { ObjectStore } from '../ports/object-store.ts'
import type { TreeContext } from '../tree/tree.ts'
import { loadIgnoredIngresses } from './ignored-ingresses.ts'

/** What a cluster serves now: its generation, when it was made, what it holds and what it refuses. */
export interface ClusterOverview {
  generation: number
  manifest: string
  committedAt: string | null
  /** Set while a rollback pins the cluster: the generation whose content is served, since when, and the changes held. */
  pinned: PinSummary | null
  /** `ignored`: Ingresses not served because of their class; null while HEAD's snapshot predates their count (until its next write). */
  counts: ClusterCounts & { ignored: IgnoredIngresses | null }
  rejected: Rejection[]
  /** Annotations of served Ingresses that hapedge does not honour as written. */
  warnings: AnnotationWarning[]
}

/**
 * A cluster's overview from its HEAD, or undefined before its first generation. It reads the
 * nodes along the counted tables' edges and the rejection tables, so it costs the same at any
 * cluster size, and nothing at all again while the snapshot is unchanged (`cache`). The node
 * cache to read through is asked for only then.
 */
export async function clusterOverview(
  store: ObjectStore,
  cluster: string,
  context: () => TreeContext,
  cache?: OverviewCache,
): Promise<ClusterOverview | undefined> {
  const keys = clusterKeys(cluster)
  const current = await readHead(store, keys)
  if (!current) return undefined
  const { head } = current
  const derived = cache?.get(cluster, head) ?? (await derive(store, cluster, context(), head))
  cache?.set(cluster, head, derived)
  return { generation: head.generation, manifest: head.manifest, pinned: pinSummary(head), ...derived }
}

type Derived = Pick<ClusterOverview, 'committedAt' | 'counts' | 'rejected' | 'warnings'>

async function derive(store: ObjectStore, cluster: string, context: TreeContext, head: Head): Promise<Derived> {
  const keys = clusterKeys(cluster)
  const loader = new NodeLoader(store, keys, context)
  const trees = await openTrees(head, loader, context, keys)
  const reader = new SnapshotReader(trees.snapshot)
  const counts = { ...(await runLoading(() => reader.counts(), loader)), ignored: await loadIgnoredIngresses(trees, loader) }
  const rejected = await runLoading(() => reader.rejections(), loader)
  const warnings = await committedWarnings(trees.snapshot, loader)
  // HEADs written before they held their time: the record's.
  const committedAt = head.committedAt ?? (await readGenerationRecord(store, keys, head.generation))?.committedAt ?? null
  return { committedAt, counts, rejected, warnings }
}

/** Overviews by cluster, valid while HEAD names the same generation, manifest and snapshot (all immutable). */
export class OverviewCache {
  private readonly entries = new Map<string, { key: string; derived: Derived }>()

  constructor(private readonly maxClusters = 10_000) {}

  get(cluster: string, head: Head): Derived | undefined {
    const entry = this.entries.get(cluster)
    return entry?.key === keyOf(head) ? entry.derived : undefined
  }

  set(cluster: string, head: Head, derived: Derived): void {
    this.entries.delete(cluster)
    this.entries.set(cluster, { key: keyOf(head), derived })
    if (this.entries.size > this.maxClusters) this.entries.delete(this.entries.keys().next().value!)
  }
}

const keyOf = (head: Head) => `${head.generation}/${head.manifest}/${head.snapshot.sha256}`
