import type { IngestResult } from '../ingest/ingest.ts'
import { capWarnings } from '../ingest/write-warnings.ts'
import type { AnnotationWarning } from '../model/ingress-annotations.ts'
import { staleDeletion } from '../ingest/resync.ts'
import { listedReads, OBJECT_TABLES, objectReads, resyncEvent, sameTexts, storedAt } from '../ingest/listed-state.ts'
import type { ResyncEvent } from '../incremental/resource-version.ts'
import type { HashText } from '../hash.ts'
import type { ClusterKeys } from '../keys/cluster-keys.ts'
import type { Rejection } from '../model/rejection.ts'
import type { ObjectStore } from '../ports/object-store.ts'
import { loadRanges, type KeyRange } from '../reading/load-range.ts'
import type { NodeLoader } from '../reading/node-loader.ts'
import { lookupsInSlices } from '../reading/lookups-in-slices.ts'
import { runLoading } from '../reading/run-loading.ts'
import { treeKey } from '../snapshot/tables.ts'
import { NodeCache } from '../tree/node-cache.ts'
import { Tree, type TreeContext } from '../tree/tree.ts'
import { SNAPSHOT_SHAPE } from '../snapshot/keyspace.ts'
import type { ResyncBudget } from './budget.ts'
import type { Pause } from '../slices.ts'
import { CommitTooLarge } from '../commit/errors.ts'
import { pointRanges, storedDigest, type StagedItem } from './page.ts'
import { readPageItems, readPageKeys } from './page-store.ts'
import type { FinishProgress } from './session.ts'
import { pagesMeeting, rangesOf } from './stale-ranges.ts'

/** What a finish works with: the cluster's storage, and the app's write path (queue, commit, status mirror, push, metrics). */
export interface FinishDeps {
  store: ObjectStore
  keys: ClusterKeys
  session: string
  hash: HashText
  budget: ResyncBudget
  /** The cluster's node cache: the staged items' lookups read the nodes their commit reads next. */
  context: TreeContext
  /**
   * The root of the snapshot the session began at (null: the cluster had none then; undefined: a
   * session begun before it was recorded): a stored object no page lists is deleted only if it
   * held it as it is now (see ResyncSession.begin).
   */
  begin?: Tree['root'] | null
  /** The cluster's current snapshot over `context` (none before its first commit), read again after each commit. */
  open(context: TreeContext): Promise<{ snapshot: Tree | undefined; loader: NodeLoader }>
  /**
   * Commits events as every write does, and answers as it does. `split`: a commit that reads more
   * than the node cache may hold for it stops with CommitTooLarge (see CommitContext.splitOverHold).
   */
  apply(events: readonly ResyncEvent[], split?: boolean): Promise<IngestResult>
  /** The rejections the cluster's newest snapshot holds: after a resync, its listed objects' (no other objects remain). */
  rejections(): Promise<Rejection[]>
  /** The annotation warnings the cluster's newest snapshot holds, as rejections(). */
  warnings(): Promise<AnnotationWarning[]>
  /** Records progress, after each slice: a finish that stops anywhere resumes from the last one recorded. */
  save(progress: FinishProgress): Promise<void>
  /** The time in milliseconds, for the request's `finishMs`. */
  now(): number
  /** The storage operations made since the request began, for its `finishOperations`. */
  operations(): number
  /** What the finish's own computations await between their slices (the commits pause by the write path's). */
  pause: Pause
}

export type FinishOutcome = { done: true; answer: IngestResult; progress: FinishProgress } | { done: false; progress: FinishProgress }

/**
 * One finish request: applies the staged pages' items in commits of `commitItems` (up to `finishItems`),
 * then deletes the stored objects no page listed, scanning the snapshot's per-object tables in
 * key ranges (at most `scanEntries` entries through a node cache of its own, so the request's
 * memory does not grow with the cluster), and answers the resync's write answer once everything
 * is applied. Each slice is a commit through the write path, recorded before the next begins.
 */
export async function finishSlice(deps: FinishDeps, start: FinishProgress): Promise<FinishOutcome> {
  const started = deps.now()
  /** Whether the request has had its time or its storage operations, after its first slice: the next finish request goes on from here. */
  const timeIsUp = () => slices > 0 && (deps.now() - started >= deps.budget.finishMs || deps.operations() >= deps.budget.finishOperations)
  let slices = 0
  let progress = start
  let last: IngestResult | undefined
  const record = async (update: Partial<FinishProgress>, result?: IngestResult) => {
    progress = { ...progress, ...update, ...(result ? { totals: addedTotals(progress.totals, result) } : {}) }
    last = result ?? last
    await deps.save(progress)
    slices++
  }

  for (let items = 0; progress.phase === 'apply' && items < deps.budget.finishItems && !timeIsUp(); ) {
    const { slice, nextPage, nextItem } = await readSlice(deps, progress, progress.commitItems ?? deps.budget.commitItems)
    const current = await unchangedSince(deps, slice)
    const applied = current.length > 0 ? await splitOverHold(deps, current, slice.length > 1) : undefined
    if (applied === 'split') {
      // Half as many from here on, this request's and those after it, until slices of that size have committed growAfter times.
      await record({ commitItems: Math.ceil(slice.length / 2), committedAtSize: 0 })
      continue
    }
    items += slice.length
    const update = {
      nextPage,
      nextItem,
      phase: nextPage >= progress.pages ? ('stale' as const) : ('apply' as const),
      applied: progress.applied + current.length,
      superseded: progress.superseded + slice.length - current.length,
      ...grownSlices(progress, deps.budget),
    }
    await record(update, applied)
  }

  const ranges = rangesOf(progress.ranges)
  const scanContext: TreeContext = { nodes: new NodeCache(deps.budget.scanCacheChars), hash: deps.hash }
  const listed = new Map<number, Set<string>>()
  for (let scanned = 0, deleted = 0; progress.phase === 'stale'; ) {
    if (scanned >= deps.budget.scanEntries || deleted >= deps.budget.finishDeletions || timeIsUp()) break
    const { range, table, from } = progress.cursor
    const bounds = ranges[range]
    if (!bounds) {
      progress = { ...progress, phase: 'done' }
      break
    }
    const { snapshot, loader } = await deps.open(scanContext)
    const scan = await scanKeys(snapshot, OBJECT_TABLES[table]!, [from || bounds[0], bounds[1]], deps.budget.scanEntries - scanned, loader)
    scanned += scan.keys.length
    if (!listed.has(range)) listed.set(range, await listedIn(deps, progress, bounds))
    const found = scan.keys.filter((key) => !listed.get(range)!.has(key))
    // No more than the request's deletions left: the next request scans on from the first stale key this one left.
    const unlisted = found.slice(0, deps.budget.finishDeletions - deleted)
    const { stale, kept } = await heldAtBegin(deps, snapshot, table, unlisted, loader)
    deleted += stale.length
    const cursor =
      unlisted.length < found.length
        ? { range, table, from: `${unlisted.at(-1)}\u0000` }
        : scan.next !== undefined
          ? { range, table, from: scan.next }
          : table + 1 < OBJECT_TABLES.length
            ? { range, table: table + 1, from: '' }
            : { range: range + 1, table: 0, from: '' }
    const update = { cursor, deleted: progress.deleted + stale.length, kept: (progress.kept ?? 0) + kept }
    await record(update, stale.length > 0 ? await deps.apply(stale.map(staleDeletion)) : undefined)
  }
  if (progress.phase !== 'done') return { done: false, progress }

  // A resync that changed nothing still answers the cluster's generation, as `PUT …/objects` does.
  const final = last ?? (await deps.apply([]))
  const { totals } = progress
  const answer: IngestResult = {
    ...final,
    committed: totals.committed || final.committed,
    changed: { files: totals.files, bytes: totals.bytes },
    reload: totals.reload || final.reload,
    reasons: totals.reasons,
    stale: totals.stale,
    rejected: await deps.rejections(),
    ...capWarnings(await deps.warnings()),
  }
  await record({ phase: 'done', answer })
  return { done: true, answer, progress }
}

/**
 * After a slice committed: once the budget's `growAfter` slices of a halved size have, twice that
 * size (up to the budget's `commitItems`). What a slice reads depends on its items (one namespace's Ingresses may share many
 * hosts), so a size halved for some slices must not stay for the rest: at 100,000 objects, slices
 * halved down to one for a few items went on one at a time, a generation each, for the next 40,000.
 * A doubling too many is halved again: at most one slice in `growAfter` + 1 is given up.
 */
function grownSlices(progress: FinishProgress, { commitItems, growAfter }: ResyncBudget): Pick<FinishProgress, 'commitItems' | 'committedAtSize'> {
  const size = progress.commitItems
  if (size === undefined || size >= commitItems) return {}
  const committed = (progress.committedAtSize ?? 0) + 1
  return committed < growAfter ? { committedAtSize: committed } : { commitItems: Math.min(commitItems, size * 2), committedAtSize: 0 }
}

/**
 * The next `size` staged items from where the progress stands, in the pages' order, and where
 * the slice after them begins. A slice goes on into the next pages while it has room: a page
 * stages only what differs, so a resync that changed 1% staged about 10 items a page, and made a
 * commit (a generation, a HEAD, a durable flush) of each page's few. Each page is read again for
 * each slice it is part of, so that a commit holds its slice alone, not a whole page of objects
 * beside it (a quarter of a page per commit under the functions' budget, in a heap of 64 MB).
 */
async function readSlice(
  deps: FinishDeps,
  { order, pages, nextPage: page, nextItem: from }: FinishProgress,
  size: number,
): Promise<{ slice: StagedItem[]; nextPage: number; nextItem: number }> {
  const slice: StagedItem[] = []
  let [nextPage, nextItem] = [page, from]
  while (slice.length < size && nextPage < pages) {
    const { items } = await readPageItems(deps.store, deps.keys, deps.session, order?.[nextPage] ?? nextPage)
    const taken = items.slice(nextItem, nextItem + size - slice.length)
    slice.push(...taken)
    nextItem += taken.length
    if (nextItem >= items.length) [nextPage, nextItem] = [nextPage + 1, 0]
  }
  return { slice, nextPage, nextItem }
}

/**
 * The slice's current items committed, or 'split' when its commit read more nodes than the node
 * cache may hold for it, or ran again too often (see CommitTooLarge): halved, it commits sooner
 * than when run again for every node it misses, each run computing all its items (9 to 16 runs per
 * commit of 250 Ingresses at 50,000 objects under a 64 MB heap, 230 at 20,000 once).
 * A slice of one item is not halved, and commits however many runs it takes. Slices are halved
 * down to one: at 100,000 objects 16 Ingresses of one namespace read 1.9 M characters of nodes,
 * more than a 64 MB heap's cache holds (2.2 M), and their commit, evicting what it read next,
 * never ended (a sixteenth of commitItems was the floor before); one of them reads 0.33 M.
 */
async function splitOverHold(deps: FinishDeps, current: readonly StagedItem[], splittable: boolean): Promise<IngestResult | 'split'> {
  const events = current.map((item) => resyncEvent(item.item))
  try {
    return await deps.apply(events, splittable)
  } catch (error) {
    if (error instanceof CommitTooLarge && splittable) return 'split'
    throw error
  }
}

/** The staged items whose key still holds what it held when their page was staged: a write since then is newer than the list. */
async function unchangedSince(deps: FinishDeps, staged: readonly StagedItem[]): Promise<StagedItem[]> {
  const { snapshot, loader } = await deps.open(deps.context)
  if (!snapshot) return [...staged]
  return lookupsInSlices([snapshot], pointRanges(listedReads(staged)), loader, () => unchangedItems(snapshot, staged, deps.hash), deps.pause)
}

/** The staged items whose key holds what their digest says, a step per item: a slice of 1,000 took up to a tenth of a second. */
function* unchangedItems(snapshot: Tree, staged: readonly StagedItem[], hash: HashText): Generator<void, StagedItem[]> {
  const unchanged: StagedItem[] = []
  for (const item of staged) {
    if (storedDigest(storedAt(snapshot, item.key), hash) === item.stored) unchanged.push(item)
    yield
  }
  return unchanged
}

/**
 * Of the stored keys no page listed (found in `OBJECT_TABLES[table]`), those the snapshot the
 * session began at held as they are now: stale, deleted. One added, changed or made again since the
 * session began is newer than the list, and kept, as `PUT …/objects` keeps a write newer than its
 * request; `kept` counts those no table before this one holds (each key once). A point lookup per
 * key in both snapshots, loaded a level per round through the scan's cache. A session begun before
 * its begin was recorded (`begin` undefined) deletes every one, as finishes did then.
 */
async function heldAtBegin(
  { begin, pause }: Pick<FinishDeps, 'begin' | 'pause'>,
  now: Tree | undefined,
  table: number,
  unlisted: string[],
  loader: NodeLoader,
): Promise<{ stale: string[]; kept: number }> {
  // A session from before begin was recorded deletes them all; with nothing committed since the begin (a finish that applied nothing), all are as they were.
  if (begin === undefined || unlisted.length === 0 || begin?.sha256 === now?.root.sha256) return { stale: unlisted, kept: 0 }
  if (!now) return { stale: [], kept: 0 }
  const then = begin && new Tree(SNAPSHOT_SHAPE, begin, now.context)
  const trees = then ? [then, now] : [now]
  return lookupsInSlices(trees, pointRanges(objectReads(unlisted)), loader, () => heldKeys(then, now, table, unlisted), pause)
}

/** heldAtBegin's comparison, a step per key: 2,000 of them are a finish request's deletions. */
function* heldKeys(then: Tree | null, now: Tree, table: number, unlisted: readonly string[]): Generator<void, { stale: string[]; kept: number }> {
  const stale: string[] = []
  let kept = 0
  for (const key of unlisted) {
    if (then && sameTexts(storedAt(then, key), storedAt(now, key))) stale.push(key)
    else if (OBJECT_TABLES.slice(0, table).every((earlier) => now.get(treeKey(earlier, key)) === undefined)) kept++
    yield
  }
  return { stale, kept }
}

/** The keys the pages list in one range: only the pages that meet it are read. */
async function listedIn(deps: FinishDeps, progress: FinishProgress, [from, to]: KeyRange): Promise<Set<string>> {
  const listed = new Set<string>()
  for (const page of pagesMeeting(progress.bounds, [from, to])) {
    for (const key of (await readPageKeys(deps.store, deps.keys, deps.session, page)).keys) if (key >= from && key < to) listed.add(key)
  }
  return listed
}

/**
 * The object keys one per-object table holds in `[from, to)`, at most `limit` of them, and the
 * key to go on from when there are more. A range that fits is loaded a level per round; a larger
 * one is read leaf by leaf, so no more than `limit` entries' nodes are ever needed at once.
 */
async function scanKeys(
  snapshot: Tree | undefined,
  table: (typeof OBJECT_TABLES)[number],
  [from, to]: KeyRange,
  limit: number,
  loader: NodeLoader,
): Promise<{ keys: string[]; next?: string }> {
  if (!snapshot) return { keys: [] }
  const prefix = treeKey(table, '')
  const [start, end] = [prefix + from, prefix + to]
  if ((await runLoading(() => snapshot.countRange(start, end), loader)) <= limit) await loadRanges(snapshot, [[start, end]], loader)
  // A run that misses a node goes on from the last key it read, keeping what it read (runLoading holds what it loads until it ends,
  // at most `limit` entries' leaves: a path longer than the cache lost its upper nodes as its leaf loaded, without end).
  const keys: string[] = []
  let cursor = start
  return runLoading(() => {
    for (const entry of snapshot.scan(cursor, end)) {
      if (keys.length >= limit) return { keys, next: entry.key.slice(prefix.length) }
      keys.push(entry.key.slice(prefix.length))
      cursor = `${entry.key}\u0000`
    }
    return { keys }
  }, loader)
}

/** Reasons for a reload kept in the session's record and its answer: a resync into an empty cluster has one per backend. */
export const REASONS_KEPT = 50

function addedTotals(totals: FinishProgress['totals'], result: IngestResult): FinishProgress['totals'] {
  const reasons = [...totals.reasons, ...result.reasons.filter((reason) => !totals.reasons.includes(reason))]
  return {
    committed: totals.committed || result.committed,
    files: totals.files + result.changed.files,
    bytes: totals.bytes + result.changed.bytes,
    reload: totals.reload || result.reload,
    reasons: reasons.slice(0, REASONS_KEPT),
    stale: totals.stale + result.stale,
  }
}
