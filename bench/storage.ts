import { execFile } from 'node:child_process'
import { mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { commitEvents, type Committed } from '../core/commit/commit-events.ts'
import type { ObjectStore } from '../core/ports/object-store.ts'
import { NodeCache } from '../core/tree/node-cache.ts'
import { toBytes } from '../core/hash.ts'
import { nodeGzip } from '../functions/adapters/gzip/node-gzip.ts'
import { nodeSha256 } from '../functions/adapters/hash/node-sha256.ts'
import { createMemoryStore } from '../functions/adapters/storage/memory-store.ts'
import { CHANGE_KINDS, ChangeSource, type ChangeKind } from './changes.ts'
import { copyToDisk } from './copy-to-disk.ts'
import { seededRandom } from './random.ts'
import { median, round } from './stats.ts'
import { syntheticCluster } from './synthetic-cluster.ts'
import { removeAtExit } from './removed-at-exit.ts'

export interface StorageRow {
  size: number
  objects: number
  change: ChangeKind
  cold_ms_p50: number
  warm_ms_p50: number
  nodes_read: number
  kib_read: number
  load_rounds: number
  nodes_written: number
  blobs_written: number
  /** Node text written (before gzip). */
  kib_written: number
  /** What the change added to storage, everything included (nodes as stored, HEAD, the generation record), read from the store's sizes. */
  kib_stored: number
}

export interface ColdProcess {
  ms: number
  heapBeforeMb: number
  heapPeakMb: number
  heapLimitMb: number
  loaded: Committed['loaded']
}

export interface StorageResult {
  size: number
  objects: number
  buildMs: number
  snapshotDepth: number
  rows: StorageRow[]
  coldProcess?: ColdProcess
}

const CLUSTER = 'bench'
const context = (budget = Number.POSITIVE_INFINITY) => ({ nodes: new NodeCache(budget), hash: nodeSha256, gzip: nodeGzip })

/**
 * The stateless path through object storage (in memory, so the figures count work, not a
 * network): a cluster committed once, then each change committed by a cold process (empty
 * cache: every node it needs is read) and by a warm one (a bounded cache kept across changes).
 */
export async function measureStorage(size: number, samples: number, coldProcess: boolean): Promise<StorageResult> {
  const random = seededRandom(size + 1)
  const objects = syntheticCluster(size, random)
  const store = await measuredStore(createMemoryStore())
  const started = performance.now()
  const built = await commitEvents(
    { store, cluster: CLUSTER, options: {}, context: context() },
    objects.map((object) => ({ type: 'ADDED' as const, object })),
  )
  const buildMs = performance.now() - started
  const source = new ChangeSource(objects, size, random)
  const warm = context(32 * 1024 * 1024)
  const rows: StorageRow[] = []
  for (const change of CHANGE_KINDS) {
    const cold: Committed[] = []
    const coldMs: number[] = []
    const warmMs: number[] = []
    const stored: number[] = []
    for (let sample = 0; sample < samples; sample++) {
      let at = performance.now()
      const before = store.bytes
      cold.push(await commitEvents({ store, cluster: CLUSTER, options: {}, context: context() }, source.next(change)))
      coldMs.push(performance.now() - at)
      stored.push(store.bytes - before)
      at = performance.now()
      await commitEvents({ store, cluster: CLUSTER, options: {}, context: warm }, source.next(change))
      warmMs.push(performance.now() - at)
    }
    // Medians: a change that lands on a host shared by many Ingresses reads them all, whatever the cluster's size.
    const typical = (pick: (committed: Committed) => number) => round(median(cold.map(pick)), 1)
    rows.push({
      size,
      objects: objects.length,
      change,
      cold_ms_p50: round(median(coldMs), 2),
      warm_ms_p50: round(median(warmMs), 2),
      nodes_read: typical((c) => c.loaded.nodes),
      kib_read: typical((c) => c.loaded.bytes / 1024),
      load_rounds: typical((c) => c.loaded.rounds),
      nodes_written: typical((c) => c.written.nodes),
      blobs_written: typical((c) => c.written.blobs),
      kib_written: typical((c) => c.written.bytes / 1024),
      kib_stored: round(median(stored) / 1024, 1),
    })
  }
  const result: StorageResult = { size, objects: objects.length, buildMs, snapshotDepth: built.head!.snapshot.level, rows }
  if (coldProcess) result.coldProcess = await measureColdProcess(store, source.next('ingress-path'))
  return result
}

/** A store that keeps the sum of its objects' sizes as puts and deletes change it (the size an object replaces is asked first). */
async function measuredStore(inner: ObjectStore): Promise<ObjectStore & { readonly bytes: number }> {
  let bytes = 0
  for await (const object of inner.list('')) bytes += object.size
  return {
    ...inner,
    get bytes() {
      return bytes
    },
    async put(key, body, condition) {
      const replaced = (await inner.head(key))?.size ?? 0
      const etag = await inner.put(key, body, condition)
      if (etag !== undefined) bytes += toBytes(body).byteLength - replaced
      return etag
    },
    async delete(keys) {
      for (const key of keys) bytes -= (await inner.head(key))?.size ?? 0
      return inner.delete(keys)
    },
  }
}

/** Copies the cluster to a directory and commits one event there from a fresh process limited to a 64 MB heap. */
async function measureColdProcess(store: ObjectStore, events: unknown): Promise<ColdProcess> {
  const root = await mkdtemp(join(tmpdir(), 'hapedge-bench-'))
  try {
    await copyToDisk(store, `clusters/${CLUSTER}/`, root)
    const eventsFile = join(root, 'events.json')
    await writeFile(eventsFile, JSON.stringify(events))
    const script = fileURLToPath(new URL('./cold-commit.ts', import.meta.url))
    const { stdout } = await promisify(execFile)(process.execPath, [
      '--max-old-space-size=64',
      '--expose-gc',
      '--import',
      'tsx',
      script,
      root,
      CLUSTER,
      eventsFile,
    ])
    return JSON.parse(stdout) as ColdProcess
  } finally {
    removeAtExit(root)
  }
}
