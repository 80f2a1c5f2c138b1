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
 * A heap V8 may grow to at least this commits a paged resync two pages at a time (a commit takes
 * its items from as many pages as it has room for). Each commit rewrites what the last wrote
 * (the maps' chunks its hosts land in, the snapshot's upper levels), so fewer commits cost less:
 * at 20,000 Ingresses in pages, with heap limits of 2 and 4 GiB, the resync spent 17 s of the
 * server's CPU in 17 commits of 2,000, and 21.6 and 21.2 s in 33 of 1,000. Under 512 MiB the
 * collector made commits of 2,000 cost more (35 s against 31 s). Commits of 4,000 read more than
 * the node cache may hold for a commit, and were halved to 2,000 (see CommitTooLarge).
 */
const LARGE_HEAP_BYTES = 2048 * 1024 * 1024

/**
 * The paged resync's budget in a long-lived server: with a roomy heap a finish commits a whole
 * page at a time (1,000 items), two with a large one, where the functions' budget commits 250
 * to fit a Worker's memory. Each commit costs a HEAD, a generation record and a durable flush, so
 * a 20,000-Ingress resync into an empty cluster made 128 generations with the functions' budget;
 * a server started with a small heap (`--max-old-space-size=64`) keeps it. A list its heap holds
 * is better taken whole: at 20,000 Ingresses one `PUT …/objects` spent 9 s of CPU and wrote
 * 6.5 MiB, the same list in pages of 1,000 commits 24 s and 31 MiB.
 */
export function serverResyncBudget(heapLimitBytes = getHeapStatistics().heap_size_limit): ResyncBudget {
  if (heapLimitBytes < ROOMY_HEAP_BYTES) return DEFAULT_RESYNC_BUDGET
  return {
    ...DEFAULT_RESYNC_BUDGET,
    commitItems: (heapLimitBytes >= LARGE_HEAP_BYTES ? 2 : 1) * DEFAULT_RESYNC_BUDGET.pageItems,
    wholeListItems: Math.floor(heapLimitBytes / HEAP_PER_LISTED_ITEM),
  }
}
