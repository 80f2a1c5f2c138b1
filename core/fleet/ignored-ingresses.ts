import type { NodeLoader } from '../reading/node-loader.ts'
import { preload } from '../commit/preload.ts'
import { runLoading } from '../reading/run-loading.ts'
import { indexedUnder } from '../incremental/cluster-wide.ts'
import type { ClusterTrees } from '../incremental/incremental-cluster.ts'
import { SnapshotReader } from '../reading/snapshot-reader.ts'
import { ClusterState, type IgnoredIngresses } from '../model/cluster-state.ts'
import { Keyspace } from '../snapshot/keyspace.ts'
import { CLUSTER_WIDE, TABLE, treeKey } from '../snapshot/tables.ts'

/** The Ingresses a committed snapshot does not serve because of their class (SnapshotReader.ignored), the paths it reads loaded together: a round trip per tree level, not one per node. */
export async function loadIgnoredIngresses(trees: ClusterTrees, loader: NodeLoader): Promise<IgnoredIngresses | null> {
  const loadPaths = (keys: string[]) => preload(trees.snapshot, trees.manifest, { snapshot: keys, files: new Map() }, loader)
  await loadPaths([treeKey(TABLE.settings, CLUSTER_WIDE)])
  const options = await runLoading(() => indexedUnder(trees.snapshot), loader)
  if (!options) return null
  await loadPaths(new ClusterState(options, new Keyspace(trees.snapshot)).ignoredByClassReads())
  return runLoading(() => new SnapshotReader(trees.snapshot).ignored(), loader)
}
