import type { CommitContext } from '../commit/commit-events.ts'
import { clusterKeys } from '../keys/cluster-keys.ts'
import type { Rejection } from '../model/rejection.ts'
import { workingState } from '../reading/head.ts'
import { loadRanges } from '../reading/load-range.ts'
import { NodeLoader } from '../reading/node-loader.ts'
import { openTrees } from '../reading/open-trees.ts'
import { readHead } from '../reading/read-head.ts'
import { runLoading } from '../reading/run-loading.ts'
import { SnapshotReader } from '../reading/snapshot-reader.ts'
import { CLUSTER_WIDE, TABLE, treeKey } from '../snapshot/tables.ts'
import type { Tree } from '../tree/tree.ts'

/** Where a snapshot keeps its rejections: the cluster-wide entries, and the tables of objects' and hosts' rejections. */
const REJECTION_RANGES = [
  [treeKey(TABLE.settings, CLUSTER_WIDE), treeKey(TABLE.settings, `${CLUSTER_WIDE}\u0000`)],
  [treeKey(TABLE.defaultBackend, CLUSTER_WIDE), treeKey(TABLE.defaultBackend, `${CLUSTER_WIDE}\u0000`)],
  [treeKey(TABLE.objectRejection, ''), treeKey(TABLE.objectRejection, '\uffff')],
  [treeKey(TABLE.hostRejections, ''), treeKey(TABLE.hostRejections, '\uffff')],
] as const

/** A snapshot's rejections (SnapshotReader.rejections), their nodes loaded a level per round first. */
export async function committedRejections(snapshot: Tree, loader: NodeLoader): Promise<Rejection[]> {
  await loadRanges(snapshot, REJECTION_RANGES, loader)
  return runLoading(() => new SnapshotReader(snapshot).rejections(), loader)
}

/** The rejections of the cluster's latest committed state that name one of `named` (`Ingress ns/name`). */
export async function latestRejections(ctx: CommitContext, named: ReadonlySet<string>): Promise<Rejection[]> {
  const keys = clusterKeys(ctx.cluster)
  const current = await readHead(ctx.store, keys)
  if (!current || named.size === 0) return []
  const loader = new NodeLoader(ctx.store, keys, ctx.context)
  const trees = await openTrees(workingState(current.head), loader, ctx.context, keys)
  return (await committedRejections(trees.snapshot, loader)).filter((rejection) => named.has(rejection.object))
}
