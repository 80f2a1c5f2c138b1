import type { Rejection } from '../model/rejection.ts'
import { loadRanges } from '../reading/load-range.ts'
import type { NodeLoader } from '../reading/node-loader.ts'
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
