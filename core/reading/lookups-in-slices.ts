import type { Pause } from '../slices.ts'
import type { Tree } from '../tree/tree.ts'
import { loadRanges, type KeyRange } from './load-range.ts'
import type { NodeLoader } from './node-loader.ts'
import { runLoadingInSlices } from './run-loading.ts'

/**
 * A computation of point lookups in `trees`, written as steps: the nodes on the paths to `ranges`
 * loaded first, a tree level per round, then the computation run in slices under the same hold,
 * so that it finds what the loads brought in however small the cache.
 */
export function lookupsInSlices<T>(
  trees: readonly Tree[],
  ranges: readonly KeyRange[],
  loader: NodeLoader,
  steps: () => Iterator<void, T>,
  pause?: Pause,
): Promise<T> {
  return loader.holding(async () => {
    for (const tree of trees) await loadRanges(tree, ranges, loader)
    return runLoadingInSlices(steps, loader, pause)
  })
}
