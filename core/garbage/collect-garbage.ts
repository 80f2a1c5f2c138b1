import { systemClock, type Clock } from '../ports/clock.ts'
import type { ObjectStore } from '../ports/object-store.ts'
import type { TreeContext } from '../tree/tree.ts'
import { clusterKeys, type ClusterKeys } from '../keys/cluster-keys.ts'
import { CommitContention } from '../commit/errors.ts'
import type { Head } from '../reading/head.ts'
import { readGenerationRecord } from '../reading/generation-records.ts'
import { ensureHeadRecord } from '../commit/head-record.ts'
import { NodeLoader } from '../reading/node-loader.ts'
import { readHead } from '../reading/read-head.ts'
import { walkGeneration } from '../reading/walk-generation.ts'
import { liveSessionBegins } from '../resync/live-begins.ts'

export interface GarbageOptions {
  /** Generations kept (HEAD and the ones before it), default 50. */
  keep?: number
  /** Objects younger than this are kept whatever references them (default 15 minutes). */
  graceMs?: number
  /** How long the collector may hold HEAD while it deletes (default 60 s). */
  leaseMs?: number
  clock?: Clock
}

export interface GarbageReport {
  generation: number
  retained: number[]
  live: number
  deleted: string[]
  /** Unreferenced, but within the grace period. */
  young: number
  /** False when the hold on HEAD lapsed (a writer went ahead) and deleting stopped early. */
  complete: boolean
}

const DELETE_BATCH = 100

/**
 * Deletes a cluster's nodes and blobs that no retained generation or live resync session
 * references and that are older than the grace period, and the records of generations no longer
 * retained. Marking reads HEAD, the retained generations and the states live resync sessions
 * began at (see liveSessionBegins); deleting happens under a hold taken by
 * compare-and-swap on that same HEAD, so no commit can land between the marking and the
 * deletions, and a writer that raced the hold starts again and re-writes what it needs.
 */
export async function collectGarbage(
  store: ObjectStore,
  cluster: string,
  context: TreeContext,
  options: GarbageOptions = {},
): Promise<GarbageReport | undefined> {
  const keys = clusterKeys(cluster)
  const clock = options.clock ?? systemClock
  const keep = options.keep ?? 50
  const graceMs = options.graceMs ?? 15 * 60_000
  const loader = new NodeLoader(store, keys, context)
  const live = new Set<string>()
  for (let attempt = 1; attempt <= 5; attempt++) {
    const current = await readHead(store, keys)
    if (!current) return undefined
    // Before its parent may go: HEAD's record is made from the two manifests when a crash kept its commit from writing it.
    await ensureHeadRecord(store, keys, current.head, loader, context, clock)
    const retained = await markRetained(store, keys, current.head, keep, loader, context, live)
    // After HEAD was read: a session begun since holds HEAD's state, marked, unless HEAD moved and the hold below fails (see beginSession).
    for (const begin of await liveSessionBegins(store, keys, clock.now())) await walkGeneration(begin, loader, context, { leaves: false, seen: live })
    const held: Head = {
      ...current.head,
      revision: current.head.revision + 1,
      collecting: { until: new Date(clock.now().getTime() + (options.leaseMs ?? 60_000)).toISOString() },
    }
    const holdEtag = await store.put(keys.head, `${JSON.stringify(held)}\n`, { ifMatch: current.etag })
    if (holdEtag === undefined) continue
    try {
      const cutoff = clock.now().getTime() - graceMs
      const { deleted, young, complete } = await deleteUnreferenced(store, keys, live, cutoff, holdEtag)
      if (complete) deleted.push(...(await deleteOldRecords(store, keys, current.head.generation - keep, holdEtag)))
      return { generation: current.head.generation, retained, live: live.size, deleted, young, complete }
    } finally {
      const { collecting: _, ...released } = held
      await store.put(keys.head, `${JSON.stringify({ ...released, revision: held.revision + 1 })}\n`, { ifMatch: holdEtag })
    }
  }
  throw new CommitContention(cluster, 5, 1)
}

/** Marks every object HEAD and the retained generation records reference; returns the generations retained. */
async function markRetained(
  store: ObjectStore,
  keys: ClusterKeys,
  head: Head,
  keep: number,
  loader: NodeLoader,
  context: TreeContext,
  live: Set<string>,
): Promise<number[]> {
  const retained = [head.generation]
  await walkGeneration({ manifest: head.manifest, snapshot: head.snapshot }, loader, context, { leaves: false, seen: live })
  // A pinned cluster's latest state is served on release: it is live, though no generation names it yet.
  if (head.pin) await walkGeneration(head.pin.latest, loader, context, { leaves: false, seen: live })
  for (let n = head.generation - 1; n > head.generation - keep && n > 0; n--) {
    const record = await readGenerationRecord(store, keys, n)
    if (!record) continue
    await walkGeneration({ manifest: record.manifest, snapshot: record.snapshot }, loader, context, { leaves: false, seen: live })
    retained.push(n)
  }
  return retained
}

async function deleteUnreferenced(store: ObjectStore, keys: ClusterKeys, live: Set<string>, cutoff: number, holdEtag: string) {
  const deleted: string[] = []
  let young = 0
  let batch: string[] = []
  const flush = async () => {
    // Each batch goes only while the hold is still ours: a lapsed hold means a writer may have committed.
    if ((await store.head(keys.head))?.etag !== holdEtag) return false
    await store.delete(batch)
    deleted.push(...batch)
    batch = []
    return true
  }
  for (const space of ['nodes', 'blobs']) {
    const prefix = `${keys.root}${space}/`
    for await (const object of store.list(prefix)) {
      if (live.has(`${space}/${object.key.slice(prefix.length)}`)) continue
      if (object.lastModified.getTime() >= cutoff) {
        young++
        continue
      }
      batch.push(object.key)
      if (batch.length >= DELETE_BATCH && !(await flush())) return { deleted, young, complete: false }
    }
  }
  const complete = batch.length === 0 || (await flush())
  return { deleted, young, complete }
}

async function deleteOldRecords(store: ObjectStore, keys: ClusterKeys, newestDropped: number, holdEtag: string): Promise<string[]> {
  const old: string[] = []
  for await (const object of store.list(keys.generations)) {
    const n = Number(object.key.slice(keys.generations.length))
    if (Number.isInteger(n) && n <= newestDropped) old.push(object.key)
  }
  if (old.length === 0 || (await store.head(keys.head))?.etag !== holdEtag) return []
  await store.delete(old)
  return old
}
