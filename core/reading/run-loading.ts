import { runInSlices, type Pause } from '../slices.ts'
import { MissingNodes } from '../tree/node.ts'
import type { NodeLoader } from './node-loader.ts'

/**
 * Runs a pure, synchronous computation over trees that are only partly loaded: each time it
 * names nodes it lacks, they are loaded and it runs again from the start. What it loads is kept
 * until it ends (NodeLoader.holding), so it ends however small the cache; one that asks again
 * only for nodes it loaded before (a hold bounded below what it needs) is stopped.
 */
export function runLoading<T>(compute: () => T, loader: NodeLoader): Promise<T> {
  return loadingUntilDone(compute, loader)
}

/**
 * As runLoading, for a long computation written as steps (see runInSlices): it pauses between
 * slices so that others run meanwhile, and a missing node starts it again from its first step
 * once loaded. Nothing it computes escapes before its end, so a rerun is as pure as runLoading's.
 */
export function runLoadingInSlices<T>(start: () => Iterator<void, T>, loader: NodeLoader, pause?: Pause): Promise<T> {
  return loadingUntilDone(() => runInSlices(start(), pause), loader)
}

function loadingUntilDone<T>(compute: () => T | Promise<T>, loader: NodeLoader): Promise<T> {
  return loader.holding(async () => {
    const loaded = new Set<string>()
    for (;;) {
      try {
        return await compute()
      } catch (error) {
        if (!(error instanceof MissingNodes)) throw error
        // A run that misses nothing new would miss the same again: each load evicts what the next run reads.
        if (error.nodes.every((node) => loaded.has(node.sha256))) throw loader.lost(error.nodes)
        for (const node of error.nodes) loaded.add(node.sha256)
        await loader.load(error.nodes)
      }
    }
  })
}
