import { getHeapStatistics } from 'node:v8'
import { DEFAULT_RESYNC_BUDGET, type ResyncBudget } from '../../../core/resync/budget.ts'

/** A heap V8 may grow to at least this holds a commit of a whole page beside the caches (serverCacheBudget takes an eighth). */
export const ROOMY_HEAP_BYTES = 512 * 1024 * 1024

/**
 * Heap a whole-list resync takes per listed item, at most: twice what one of 31,967 objects
 * (20,000 Ingresses) peaked at through `hapedge serve` (505 MB, the benchmark's resync rows).
 */
const HEAP_PER_LISTED_ITEM = 32 * 1024

/**
 * The paged resync's budget in a long-lived server: with the default heap a finish commits a
 * whole page at a time (1,000 items), where the functions' budget commits 250 to fit a
 * Worker's memory. Each commit costs a HEAD, a generation record and a durable flush, so a
 * 20,000-Ingress resync into an empty cluster made 128 generations instead of 32; a server
 * started with a small heap (`--max-old-space-size=64`) keeps the functions' budget. A list its
 * heap holds is better taken whole: at 20,000 Ingresses one `PUT …/objects` spent 9 s of CPU and
 * wrote 6.5 MiB, the same list in pages 24 s and 31 MiB (each commit rewrites what the last wrote).
 */
export function serverResyncBudget(heapLimitBytes = getHeapStatistics().heap_size_limit): ResyncBudget {
  if (heapLimitBytes < ROOMY_HEAP_BYTES) return DEFAULT_RESYNC_BUDGET
  return { ...DEFAULT_RESYNC_BUDGET, commitItems: DEFAULT_RESYNC_BUDGET.pageItems, wholeListItems: Math.floor(heapLimitBytes / HEAP_PER_LISTED_ITEM) }
}
