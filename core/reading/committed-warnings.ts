import type { AnnotationWarning } from '../model/ingress-annotations.ts'
import { TABLE, treeKey } from '../snapshot/tables.ts'
import type { Tree } from '../tree/tree.ts'
import { loadRanges } from './load-range.ts'
import type { NodeLoader } from './node-loader.ts'
import { runLoading } from './run-loading.ts'
import { SnapshotReader } from './snapshot-reader.ts'

/** Every warning a snapshot holds (a scan of its warnings table, loaded a level per round first). */
export async function committedWarnings(snapshot: Tree, loader: NodeLoader): Promise<AnnotationWarning[]> {
  await loadRanges(snapshot, [[treeKey(TABLE.ingressWarnings, ''), treeKey(TABLE.ingressWarnings, '\uffff')]], loader)
  return runLoading(() => new SnapshotReader(snapshot).warnings(), loader)
}
