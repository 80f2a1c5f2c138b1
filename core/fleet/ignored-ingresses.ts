import type { NodeLoader } from '../reading/node-loader.ts'
import { preload } from '../commit/preload.ts'
import { runLoading } from '../reading/run-loading.ts'
import { indexedUnder, type ClusterTrees } from '../incremental/incremental-cluster.ts'
import { ClusterState, type IgnoredIngresses } from '../model/cluster-state.ts'
import { Keyspace } from '../snapshot/keyspace.ts'
import { CLUSTER_WIDE, TABLE, treeKey } from '../snapshot/tables.ts'
import type { Tree } from '../tree/tree.ts'

/**
 * The Ingresses a committed snapshot does not serve because of their class, under the options it
 * was derived under, counted along the indexes' edges: a few nodes at any cluster size. Null for
 * a snapshot written before the index they are counted from, until its next write builds it.
 * Pure: a cold tree throws MissingNodes.
 */
export function ignoredIngresses(snapshot: Tree): IgnoredIngresses | null {
  const options = indexedUnder(snapshot)
  return options ? new ClusterState(options, new Keyspace(snapshot)).ignoredByClass() : null
}

/** The same from storage, the paths it reads loaded together: a round trip per tree level, not one per node. */
export async function loadIgnoredIngresses(trees: ClusterTrees, loader: NodeLoader): Promise<IgnoredIngresses | null> {
  const loadPaths = (keys: string[]) => preload(trees.snapshot, trees.manifest, { snapshot: keys, files: new Map() }, loader)
  await loadPaths([treeKey(TABLE.settings, CLUSTER_WIDE)])
  const options = await runLoading(() => indexedUnder(trees.snapshot), loader)
  if (!options) return null
  await loadPaths(new ClusterState(options, new Keyspace(trees.snapshot)).ignoredByClassReads())
  return runLoading(() => ignoredIngresses(trees.snapshot), loader)
}
