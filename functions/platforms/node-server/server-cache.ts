import { getHeapStatistics } from 'node:v8'
import type { CacheBudget } from '../../app/services/node-caches.ts'
import { ROOMY_HEAP_BYTES } from './server-resync-budget.ts'

const MiB = 1024 * 1024

/**
 * Heap a cached node takes per character of its text: the text, its decoded form beside it
 * (about as large again) and its entry in the cache's map. Measured in a heap snapshot of a
 * server with a full cache: 33.4 MB held for 14.9 M characters of text, so 2.25; rounded up.
 */
export const CACHED_BYTES_PER_CHAR = 2.5

/**
 * A long-lived server keeps many clusters warm: one budget over all of them, so a fleet of small
 * clusters stays cached where a fixed count (16) sent most events to a cold cache. At most an
 * eighth of the heap V8 may grow to, counted as the heap the cached nodes take (their decoded
 * forms included), so a server started with a small heap (`--max-old-space-size=64`, whose limit
 * V8 reports as 112 MiB with the young generation) keeps its caches well inside it and leaves the
 * rest to the requests: counted in characters of text alone, a full cache took 33 MB there.
 * A commit holds what it reads beside its cluster's cache (half as much again). Under a small
 * heap the cache keeps an eighth of that eighth warm and a commit holds a quarter of it: a commit
 * that needs more is split by its finish (CommitTooLarge), and the rest of the heap is the
 * requests' garbage. At 20,000 objects a paged resync's peak fell from 68.5 MB to 51.5 MB so.
 */
export function serverCacheBudget(heapLimitBytes = getHeapStatistics().heap_size_limit): CacheBudget {
  const total = Math.min(256 * MiB, Math.floor(heapLimitBytes / 8 / CACHED_BYTES_PER_CHAR))
  if (heapLimitBytes < ROOMY_HEAP_BYTES) return { perCluster: Math.floor(total / 8), clusters: 4096, total, hold: Math.floor(total / 4) }
  return { perCluster: Math.min(64 * MiB, total), clusters: 4096, total }
}
