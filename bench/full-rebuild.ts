import { Worker } from 'node:worker_threads'
import { listBody } from './serve-client.ts'

/** The heap a full rebuild at the target size is given (issue 19: < 256 MB): the thread running the rebuilds gets no more. */
export const FULL_REBUILD_HEAP_MB = 256

/** The full rebuilds of one cluster, measured on a thread of their own. */
export interface FullRebuilds {
  /** Each rebuild's time: read, derive, render, cut and hash everything into a generation. */
  ms: number[]
  /** The part of each rebuild's time V8 spent collecting (scavenges and full collections): under the heap limit, a quarter to a third. */
  collectingMs: number[]
  /** The largest heap used V8 reported during any rebuild (before each collection, and at its end): the input, the rebuild's work and its result. */
  peakMb: number
  /** The thread's heap with its code loaded, before the input. */
  baseMb: number
  /** The heap the parsed input adds to it. */
  inputMb: number
  /** The old generation's limit the thread ran under. */
  heapLimitMb: number
  /** Why the rebuilds did not finish (the thread ran out of its heap). */
  error?: string
}

/**
 * `runs` full rebuilds of `objects`, on a thread of their own whose old generation is limited to
 * `heapLimitMb`, which parses them from their JSON text as a request would its body. Its heap
 * then counts what a function rebuilding the cluster holds, the input it parsed included, and not
 * the benchmark's own objects, change sources and live cluster (which, in one heap with the
 * rebuild, added tens of megabytes); the limit makes V8 collect as a function's heap would,
 * where an unlimited one let the rebuild's garbage pile up uncollected into the peak.
 */
export function measureFullRebuilds(objects: readonly unknown[], runs: number, heapLimitMb = FULL_REBUILD_HEAP_MB): Promise<FullRebuilds> {
  // A worker does not inherit the main thread's `--import tsx`: it registers tsx, then loads the TypeScript module.
  const script = new URL('./full-rebuild-worker.ts', import.meta.url).href
  const boot = `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(script)}) })`
  const worker = new Worker(boot, { eval: true, workerData: { list: listBody(objects), runs }, resourceLimits: { maxOldGenerationSizeMb: heapLimitMb } })
  return new Promise<FullRebuilds>((resolve) => {
    worker.once('message', (measured: Omit<FullRebuilds, 'heapLimitMb'>) => resolve({ ...measured, heapLimitMb }))
    worker.once('error', (error) =>
      resolve({ ms: [Number.NaN], collectingMs: [Number.NaN], peakMb: Number.NaN, baseMb: Number.NaN, inputMb: Number.NaN, heapLimitMb, error: error.message }),
    )
  }).finally(() => worker.terminate())
}
