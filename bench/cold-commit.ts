/**
 * One event committed by a process that starts cold: run with `--max-old-space-size=64` to show
 * that a stateless function handles a one-Ingress change on a large cluster inside a Worker's
 * memory. Usage: node --max-old-space-size=64 --expose-gc --import tsx bench/cold-commit.ts ROOT CLUSTER EVENTS.json
 */
import { readFileSync } from 'node:fs'
import { getHeapStatistics } from 'node:v8'
import { commitEvents } from '../core/commit/commit-events.ts'
import type { WatchEvent } from '../core/incremental/watch-event.ts'
import { NodeCache } from '../core/tree/node-cache.ts'
import { nodeGzip } from '../functions/adapters/gzip/node-gzip.ts'
import { nodeSha256 } from '../functions/adapters/hash/node-sha256.ts'
import { createDiskStore } from '../functions/adapters/storage/disk-store.ts'
import { collectGarbage } from './stats.ts'

const [root, cluster, eventsFile] = process.argv.slice(2)
if (!root || !cluster || !eventsFile) throw new Error('usage: cold-commit.ts ROOT CLUSTER EVENTS.json')
const events = JSON.parse(readFileSync(eventsFile, 'utf8')) as WatchEvent[]
collectGarbage()
const mb = (bytes: number) => bytes / 1024 / 1024
const before = process.memoryUsage().heapUsed
let peak = before
const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().heapUsed)), 1)
const started = performance.now()
const result = await commitEvents(
  { store: createDiskStore({ root }), cluster, options: {}, context: { nodes: new NodeCache(16 * 1024 * 1024), hash: nodeSha256, gzip: nodeGzip } },
  events,
)
const ms = performance.now() - started
clearInterval(sampler)
peak = Math.max(peak, process.memoryUsage().heapUsed)
console.log(
  JSON.stringify({
    ms,
    committed: result.committed,
    heapBeforeMb: mb(before),
    heapPeakMb: mb(peak),
    heapLimitMb: mb(getHeapStatistics().heap_size_limit),
    loaded: result.loaded,
    written: result.written,
  }),
)
