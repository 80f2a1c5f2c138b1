import { runInSlices, type Pause } from '../slices.ts'
import { MissingNodes } from '../tree/node.ts'
import type { NodeLoader } from './node-loader.ts'

/**
 * Runs a pure, synchronous computation over trees that are only partly loaded: each time it
 * names nodes it lacks, they are loaded and it runs again from the start. A computation that
 * asks again for what was just loaded (a cache too small for one change) is stopped.
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

async function loadingUntilDone<T>(compute: () => T | Promise<T>, loader: NodeLoader): Promise<T> {
  let previous = ''
  for (;;) {
    try {
      return await compute()
    } catch (error) {
      if (!(error instanceof MissingNodes)) throw error
      const missing = error.nodes.map((node) => node.sha256).join(',')
      if (missing === previous) throw new Error(`the node cache cannot hold one change's nodes (${missing} evicted as soon as loaded)`)
      previous = missing
      await loader.load(error.nodes)
    }
  }
}
