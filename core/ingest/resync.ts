import type { ResyncEvent } from '../incremental/resource-version.ts'
import type { ClusterOptions } from '../model/settings.ts'
import { loadRanges, type KeyRange } from '../reading/load-range.ts'
import type { NodeLoader } from '../reading/node-loader.ts'
import { runLoading } from '../reading/run-loading.ts'
import { treeKey } from '../snapshot/tables.ts'
import type { Tree } from '../tree/tree.ts'
import { runInSlices, type Pause } from '../slices.ts'
import { yieldToEventLoop } from '../yield-to-event-loop.ts'
import { listedItems, listedStates, OBJECT_TABLES, resyncEvent, sameTexts, type ListedItem, type ListedState, type StoredTexts } from './listed-state.ts'
import { kindRank } from '../kube/kind-order.ts'
import { refOfKey } from '../kube/objects.ts'

/** Above every object key (`Kind/ns/name`): the open end of a range. */
const END = '\uffff'

/** Listed objects per slice of a loading resync: the nodes of one slice's range must fit the cluster's node cache. */
const SLICE = 4096

/**
 * A full resync as events: the list is the truth. One ordered merge of the listed states with
 * the snapshot's `object`, `invalid` and `resource-version` tables (each read once, in key
 * order): a MODIFIED for each listed object whose stored texts differ from what the list leaves
 * (an unchanged list gives none), and a DELETED for each object the snapshot holds, or holds a
 * version or tombstone of, that the list lacks. They are resync events: they apply whatever
 * versions were seen before, and leave only the list's (see IncrementalCluster). Throws
 * MissingNodes over a partly loaded snapshot: `loadResyncEvents` loads it level by level first.
 */
export function resyncEvents(snapshot: Tree | undefined, items: readonly Record<string, unknown>[], options: Partial<ClusterOptions> = {}): ResyncEvent[] {
  return resyncChanges(snapshot, listedStates(items, options))
}

/** Events in KIND_ORDER (core/kube/kind-order.ts): what Ingresses refer to before them. */
const byKind = (a: ResyncEvent, b: ResyncEvent) => kindRank(String(a.object.kind)) - kindRank(String(b.object.kind))

/** The events of a resync for the listed states (sorted by key) with keys in `[from, to)`, in KIND_ORDER, then key order. */
export function resyncChanges(snapshot: Tree | undefined, listed: readonly ListedState[], from = '', to = END): ResyncEvent[] {
  const events = mergedChanges(snapshot, listed, from, to)
  // A stable sort: each kind's events keep their key order.
  return events.sort(byKind)
}

function mergedChanges(snapshot: Tree | undefined, listed: readonly ListedState[], from: string, to: string): ResyncEvent[] {
  const events: ResyncEvent[] = []
  let next = lowerBound(listed.length, (i) => listed[i]!.key, from)
  const putListed = (until: string) => {
    for (; next < listed.length && listed[next]!.key < until; next++) {
      const state = listed[next]!
      if (!sameTexts({}, state)) events.push(resyncEvent(state.item))
    }
  }
  for (const [key, stored] of storedEntries(snapshot, from, to)) {
    putListed(key)
    const state = listed[next]
    if (state?.key === key) {
      if (!sameTexts(stored, state)) events.push(resyncEvent(state.item))
      next++
    } else events.push(staleDeletion(key))
  }
  putListed(to)
  return events
}

/** The objects the snapshot holds (or holds a version or tombstone of) with keys in `[from, to)` that `listedKeys` (sorted) lacks. */
export function staleKeys(snapshot: Tree | undefined, listedKeys: readonly string[], from = '', to = END): string[] {
  const stale: string[] = []
  let next = lowerBound(listedKeys.length, (i) => listedKeys[i]!, from)
  for (const [key] of storedEntries(snapshot, from, to)) {
    while (next < listedKeys.length && listedKeys[next]! < key) next++
    if (listedKeys[next] !== key) stale.push(key)
  }
  return stale
}

/** The tree ranges of the three per-object tables for object keys in `[from, to)`. */
export function objectTableRanges(from = '', to = END): KeyRange[] {
  return OBJECT_TABLES.map((table) => [treeKey(table, from), treeKey(table, to)])
}

/**
 * `resyncChanges` over a snapshot in storage: the listed states are cut into slices of key
 * ranges; each slice's nodes of the three tables are loaded a level per round, then merged. The
 * computation never runs again per missing node, and one slice's nodes at a time need to fit
 * the node cache.
 */
export async function loadResyncEvents(
  snapshot: Tree | undefined,
  listed: readonly ListedState[],
  loader: NodeLoader,
  slice = SLICE,
  pause: Pause = yieldToEventLoop,
): Promise<ResyncEvent[]> {
  if (!snapshot) return resyncChanges(undefined, listed)
  const bounds = ['']
  for (let at = slice; at < listed.length; at += slice) bounds.push(listed[at]!.key)
  bounds.push(END)
  const events: ResyncEvent[] = []
  for (let i = 0; i + 1 < bounds.length; i++) {
    const [from, to] = [bounds[i]!, bounds[i + 1]!]
    if (i > 0) await pause()
    await loadRanges(snapshot, objectTableRanges(from, to), loader)
    // Loaded already; a node the cache evicted meanwhile is loaded again by the rerun of this slice alone.
    for (const event of await runLoading(() => mergedChanges(snapshot, listed, from, to), loader)) events.push(event)
  }
  return events.sort(byKind)
}

/**
 * A full resync into a cluster with no snapshot yet, as events: every listed object (the last
 * item at each key) is new, sent in KIND_ORDER, then key order. Nothing is compared, so what each
 * would store is never computed (a cluster state of the whole list, each object read twice); an
 * item that would store nothing (a Secret hapedge does not read, without a version) is sent too,
 * and applying it leaves nothing, as comparing would have found.
 */
export function fillingEvents(listed: readonly ListedItem[]): ResyncEvent[] {
  return listed.map(({ item }) => resyncEvent(item)).sort(byKind)
}

/** A full resync of `items` into a cluster with no snapshot yet (`fillingEvents`): its events, and the keys it listed, in key order. Computed in slices. */
export async function fillingResync(
  items: readonly Record<string, unknown>[],
  pause: Pause = yieldToEventLoop,
): Promise<{ keys: string[]; events: ResyncEvent[] }> {
  const listed = await runInSlices(listedItems(items), pause)
  return { keys: listed.map(({ key }) => key), events: fillingEvents(listed) }
}

/** A full resync of listed states (sorted by key, see ListReader) over the snapshot in storage: its events, and the keys it listed. */
export async function resyncOfListed(
  snapshot: Tree,
  listed: readonly ListedState[],
  loader: NodeLoader,
  pause: Pause = yieldToEventLoop,
): Promise<{ keys: string[]; events: ResyncEvent[] }> {
  return { keys: listed.map(({ key }) => key), events: await loadResyncEvents(snapshot, listed, loader, undefined, pause) }
}

/** The stored texts per object key in `[from, to)`, in key order: the three tables' scans merged. */
function* storedEntries(snapshot: Tree | undefined, from: string, to: string): Generator<[string, StoredTexts]> {
  if (!snapshot) return
  const fields = { object: 'object', invalid: 'invalid', 'resource-version': 'version' } as const
  const streams = OBJECT_TABLES.map((table) => {
    const prefix = treeKey(table, '')
    const entries = snapshot.scan(prefix + from, prefix + to)
    return { field: fields[table], prefix, entries, head: entries.next() }
  })
  for (;;) {
    let key: string | undefined
    for (const { head, prefix } of streams) {
      if (head.done) continue
      const at = head.value.key.slice(prefix.length)
      if (key === undefined || at < key) key = at
    }
    if (key === undefined) return
    const texts: StoredTexts = {}
    for (const stream of streams) {
      if (stream.head.done || stream.head.value.key.slice(stream.prefix.length) !== key) continue
      texts[stream.field] = stream.head.value.value
      stream.head = stream.entries.next()
    }
    yield [key, texts]
  }
}

/** The first index of a sorted sequence whose key is not below `key`. */
function lowerBound(length: number, keyAt: (index: number) => string, key: string): number {
  let low = 0
  let high = length
  while (low < high) {
    const mid = (low + high) >>> 1
    if (keyAt(mid) < key) low = mid + 1
    else high = mid
  }
  return low
}

/** A stored object no list names: its deletion, with the least object a DELETED event needs (kind, name, namespace) from `Kind/ns/name`. */
export function staleDeletion(key: string): ResyncEvent {
  const { kind, ...metadata } = refOfKey(key)
  return { type: 'DELETED', object: { kind, metadata }, resync: true }
}
