import { clusterKeys } from '../keys/cluster-keys.ts'
import { pinSummary, type Head } from '../reading/head.ts'
import { readGenerationRecord } from '../reading/generation-records.ts'
import { NodeLoader } from '../reading/node-loader.ts'
import { openTrees } from '../reading/open-trees.ts'
import { runLoading } from '../reading/run-loading.ts'
import { loadIgnoredIngresses } from '../fleet/ignored-ingresses.ts'
import { SnapshotReader } from '../reading/snapshot-reader.ts'
import { committedWarnings } from '../reading/committed-warnings.ts'
import type { ClusterOptions } from '../model/settings.ts'
import type { ObjectStore } from '../ports/object-store.ts'
import type { TreeContext } from '../tree/tree.ts'
import type { HAProxyCfgStatus } from '../kube/haproxycfg.ts'
import { haproxyCfgStatus, type CommitFacts } from './haproxycfg-status.ts'
import { statusFiles } from './status-files.ts'

/** Where a cluster's committed state is read from: what a commit already has (`CommitContext` fits). */
export interface StatusSources {
  store: ObjectStore
  cluster: string
  options: Partial<ClusterOptions>
  context: TreeContext
}

/**
 * The `HAProxyCfg` status for the generation HEAD names: its files from the manifest tree, every
 * rejection in the cluster from the snapshot, its time and plan from the generation record
 * (`now` and no reload when that record was never written). Reads the manifest's nodes, the
 * rejection tables and the edges of the indexes the Ingresses ignored by class are counted from,
 * so it costs the same at any cluster size; nodes the commit just made
 * are already in the context's cache.
 */
export async function statusOfHead(sources: StatusSources, head: Head, pods: CommitFacts['pods'], now: Date): Promise<HAProxyCfgStatus> {
  const keys = clusterKeys(sources.cluster)
  const loader = new NodeLoader(sources.store, keys, sources.context)
  const trees = await openTrees(head, loader, sources.context, keys)
  const files = await runLoading(() => statusFiles(trees.manifest), loader)
  const rejected = await runLoading(() => new SnapshotReader(trees.snapshot).rejections(), loader)
  const warnings = await committedWarnings(trees.snapshot, loader)
  const ignored = await loadIgnoredIngresses(trees, loader)
  const record = await readGenerationRecord(sources.store, keys, head.generation)
  return haproxyCfgStatus({
    generation: head.generation,
    manifest: head.manifest,
    committedAt: record?.committedAt ?? now.toISOString(),
    files,
    reload: record?.plan.reload ?? false,
    reloadReasons: record?.plan.reasons ?? [],
    rejected,
    warnings,
    ignored,
    pods,
    pinned: pinSummary(head) ?? undefined,
  })
}
