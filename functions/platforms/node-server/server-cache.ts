import { getHeapStatistics } from 'node:v8'
import type { CacheBudget } from '../../app/services/node-caches.ts'

const MiB = 1024 * 1024

/**
 * A long-lived server keeps many clusters warm: one budget over all of them, so a fleet of small
 * clusters stays cached where a fixed count (16) sent most events to a cold cache. At most an
 * eighth of the heap V8 may grow to, in characters of node text (a cached node keeps its decoded
 * form beside its text, several times the text's size), so a server started with a small heap
 * (`--max-old-space-size=64`, whose limit V8 reports as 112 MiB with the young generation) keeps
 * its caches well inside it and leaves the rest to the requests.
 */
export function serverCacheBudget(heapLimitBytes = getHeapStatistics().heap_size_limit): CacheBudget {
  const total = Math.min(256 * MiB, Math.floor(heapLimitBytes / 8))
  return { perCluster: Math.min(64 * MiB, total), clusters: 4096, total }
}
