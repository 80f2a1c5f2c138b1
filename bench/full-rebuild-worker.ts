import { GCProfiler } from 'node:v8'
import { parentPort, workerData } from 'node:worker_threads'
import { buildGeneration } from '../core/generation/generation.ts'
import { fullRebuild } from '../core/render/full-rebuild.ts'
import { NodeCache } from '../core/tree/node-cache.ts'
import { nodeSha256 } from '../functions/adapters/hash/node-sha256.ts'
import type { FullRebuilds } from './full-rebuild.ts'
import { collectGarbage, heapUsedMb } from './stats.ts'

// The full rebuilds of measureFullRebuilds, in this thread's own heap.
const MB = 1024 * 1024
const workerInput = workerData as { list?: string; runs: number }

/** One rebuild, the objects to a generation: a function of its own, so nothing of it is reachable once it returns. */
function rebuild(objects: readonly unknown[]): void {
  // The layout alone is passed on: the state and model it was rendered from are not needed to cut and hash it.
  buildGeneration(fullRebuild(objects).layout, { nodes: new NodeCache(), hash: nodeSha256 })
}

// The list is kept as bytes, outside the heap, and parsed anew before each rebuild, as a request parses its body: a
// rebuild of objects read before would find every reading of them memoised (readObject, the annotations) and skip it.
const body = new TextEncoder().encode(workerInput.list!)
workerInput.list = undefined
const parsed = (): unknown[] => (JSON.parse(new TextDecoder().decode(body)) as { items: unknown[] }).items
collectGarbage()
const baseMb = heapUsedMb()
let objects = parsed()
collectGarbage()
const inputMb = heapUsedMb() - baseMb
const ms: number[] = []
const collectingMs: number[] = []
let peakMb = 0
for (let run = 0; run < workerInput.runs; run++) {
  if (run > 0) objects = parsed()
  collectGarbage()
  const profiler = new GCProfiler()
  profiler.start()
  const started = performance.now()
  rebuild(objects)
  ms.push(performance.now() - started)
  const atEnd = heapUsedMb()
  // The heap only grows between collections: its peak is the largest "used" figure before one, or at the end.
  const collections = profiler.stop().statistics
  collectingMs.push(collections.reduce((sum, collection) => sum + collection.cost, 0) / 1000)
  const beforeCollections = collections.map((collection) => collection.beforeGC.heapStatistics.usedHeapSize / MB)
  peakMb = Math.max(peakMb, atEnd, ...beforeCollections)
}
parentPort!.postMessage({ ms, collectingMs, peakMb, baseMb, inputMb } satisfies Omit<FullRebuilds, 'heapLimitMb'>)
