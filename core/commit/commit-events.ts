import type { Applied } from '../incremental/incremental-cluster.ts'
import { IncrementalCluster } from '../incremental/incremental-cluster.ts'
import { rederivesAll } from '../incremental/cluster-wide.ts'
import { likelyReadSteps } from '../incremental/likely-reads.ts'
import { ClusterState } from '../model/cluster-state.ts'
import { Keyspace } from '../snapshot/keyspace.ts'
import type { WatchEvent } from '../incremental/watch-event.ts'
import type { ClusterOptions } from '../model/settings.ts'
import { systemClock, type Clock } from '../ports/clock.ts'
import type { ObjectStore } from '../ports/object-store.ts'
import type { NewNode } from '../tree/node.ts'
import { nodeBody } from '../tree/node-body.ts'
import { utf8Length } from '../tree/tree-shape.ts'
import type { TreeContext } from '../tree/tree.ts'
import { clusterKeys, type ClusterKeys } from '../keys/cluster-keys.ts'
import { CommitContention, CommitTooLarge } from './errors.ts'
import { workingState, type CommittedState, type Head } from '../reading/head.ts'
import { recordGeneration } from './record-generation.ts'
import { ensureHeadRecord, noteRecorded } from './head-record.ts'
import { NodeLoader, type LoadStats } from '../reading/node-loader.ts'
import { openTrees } from '../reading/open-trees.ts'
import { judgedSecretEvents, unjudgedSecrets } from './judge-stored-secrets.ts'
import { preload } from './preload.ts'
import { readHead } from '../reading/read-head.ts'
import { runLoading, runLoadingInSlices } from '../reading/run-loading.ts'
import { runSteps, type Pause } from '../slices.ts'
import { walkGeneration } from '../reading/walk-generation.ts'

export interface CommitContext {
  store: ObjectStore
  cluster: string
  options: Partial<ClusterOptions>
  /** The process's node cache for this cluster (nodes are immutable, so it is always valid) and its hash. */
  context: TreeContext
  clock?: Clock
  /** Tries before giving up with CommitContention (default 6). */
  attempts?: number
  /** What the change's computation awaits between its slices (default: a turn of the event loop), so other clusters' writes on the same thread go on meanwhile. */
  pause?: Pause
  /**
   * Stop with CommitTooLarge, before loading more, once a commit of more than one event has read
   * more than its node cache may hold for it (NodeCache.holdChars), or has loaded MAX_LOADS times:
   * its caller commits fewer events at a time. Otherwise such a commit runs again for each node it
   * misses, every run as long as the events are many. A commit that is not to split (or of one
   * event) holds every node it reads until it is committed, however many.
   */
  splitOverHold?: boolean
  /**
   * Told of the generation a request's commits made current (not while the cluster is pinned), as
   * soon as HEAD names it: before its generation's record is written and before the answer's reads of
   * rejections and warnings, which at 20,000 Ingresses cost milliseconds that the agents need not wait for.
   */
  committed?: (head: { generation: number; manifest: string }) => void
}

export interface Committed {
  head: Head | undefined
  /** False when the events changed nothing: no generation was made. */
  committed: boolean
  /** True when the cluster is pinned: the change is committed to its latest state, and served on release. */
  held: boolean
  applied?: Applied
  attempts: number
  loaded: LoadStats
  /** Objects written: snapshot nodes, blobs, and their bytes. */
  written: { nodes: number; blobs: number; bytes: number }
  /** What went wrong after the commit, without undoing it (the generation record could not be written). */
  warnings: string[]
  /** Whether `committed` of the context was told of this commit's generation. */
  announced: boolean
}

const WRITE_CONCURRENCY = 16

/**
 * Applies events to a cluster's committed state and commits the result: load HEAD and the
 * nodes the events touch, apply, write every new node and blob, then move HEAD by
 * compare-and-swap, then write the generation's record; the last commit of a request (`last`) tells
 * `ctx.committed` in between. Until HEAD moves nothing names the new
 * objects, so a failure at any step leaves the last generation whole (and a record a crash kept
 * from being written is made again from HEAD before HEAD moves on). A writer that loses the race
 * starts again from the new HEAD (events are idempotent), with jittered backoff, a bounded number
 * of times.
 */
export async function commitEvents(ctx: CommitContext, events: readonly WatchEvent[], last = true): Promise<Committed> {
  try {
    return await commitAttempts(ctx, events, last)
  } finally {
    ctx.context.nodes.release()
    // Written, or given up: what this commit made is in storage or needed no more (one commit at a time per cluster).
    ctx.context.nodes.forgetMade()
  }
}

/** The share of its cluster's node cache a commit may load of what new objects name before it runs (see preload): less than it holds, so the hold keeps room for what the change reads. */
const PRELOAD_SHARE = 0.25

async function commitAttempts(ctx: CommitContext, events: readonly WatchEvent[], last: boolean): Promise<Committed> {
  const keys = clusterKeys(ctx.cluster)
  const clock = ctx.clock ?? systemClock
  const attempts = ctx.attempts ?? 6
  const splittable = ctx.splitOverHold === true && events.length > 1
  const loader = splittable ? new HoldBoundLoader(ctx.store, keys, ctx.context, ctx.cluster, events.length) : new NodeLoader(ctx.store, keys, ctx.context)
  // A commit that cannot be split holds all it reads, beyond the cache's budget if it must (bounded by what its events need):
  // held up to the budget's share, one Ingress reading more than the cache holds evicted what its next run read, without end.
  const holdChars = splittable ? ctx.context.nodes.holdChars : Number.POSITIVE_INFINITY
  const written = { nodes: 0, blobs: 0, bytes: 0 }
  for (let attempt = 1; attempt <= attempts; attempt++) {
    const current = await readHead(ctx.store, keys)
    const collecting = current && collectingUntil(current.head, clock)
    if (collecting) {
      // The collector holds HEAD for a short lease; wait for it rather than race it.
      if (attempt < attempts) await clock.sleep(Math.min(collecting, backoff(attempt + 2, clock)))
      continue
    }
    const base = current && workingState(current.head)
    const held = current?.head.pin !== undefined
    // Beside the loading: HEAD's generation must have its record before this commit moves HEAD past it.
    const [applied] = await Promise.all([
      apply(ctx, keys, base, events, loader, holdChars),
      current && !held && ensureHeadRecord(ctx.store, keys, current.head, loader, ctx.context, clock),
    ])
    if (base && applied.snapshot.root.sha256 === base.snapshot.sha256 && applied.generation.record.sha256 === base.manifest) {
      return { head: current!.head, committed: false, held, applied, attempts: attempt, loaded: loader.stats, written, warnings: [], announced: false }
    }
    await writeCreated(ctx.store, keys, applied, written)
    const head = nextHead(current?.head, { manifest: applied.generation.record.sha256, snapshot: applied.snapshot.root }, clock)
    const moved = await ctx.store.put(keys.head, `${JSON.stringify(head)}\n`, current ? { ifMatch: current.etag } : { ifNoneMatch: '*' })
    if (moved !== undefined) {
      // The next commit opens its trees from this record: from the cache, not read back from storage.
      ctx.context.nodes.add(applied.generation.record.sha256, applied.generation.record.text)
      // The record is for history and rollbacks (and made again before HEAD moves on, if lost): no agent needs it.
      const announced = last && !held && ctx.committed !== undefined
      if (announced) ctx.committed!({ generation: head.generation, manifest: head.manifest })
      const warnings = held ? [] : await recordGeneration(ctx.store, keys, head, { plan: applied.plan, files: [...applied.files] }, clock)
      if (!held && warnings.length === 0) noteRecorded(ctx.context, keys, head)
      return { head, committed: true, held, applied, attempts: attempt, loaded: loader.stats, written, warnings, announced }
    }
    if (attempt < attempts) await clock.sleep(backoff(attempt, clock))
  }
  throw new CommitContention(ctx.cluster, attempts, 1)
}

/** The events applied to the committed state `base` (none: a new cluster), loading what they touch. */
async function apply(
  ctx: CommitContext,
  keys: ClusterKeys,
  base: CommittedState | undefined,
  events: readonly WatchEvent[],
  loader: NodeLoader,
  holdChars: number,
): Promise<Applied> {
  const trees = base && (await openTrees(base, loader, ctx.context, keys))
  if (trees) {
    // What the change reads stays cached until it is committed (up to `holdChars`), so a rerun never loads it again.
    ctx.context.nodes.hold(holdChars)
    // The settings entry is among the likely reads, so the check after them reads from the cache.
    const reads = await runSteps(likelyReadSteps(events, ctx.options), ctx.pause)
    // The write's answer counts the Ingresses ignored by class after it: their paths load in the same rounds.
    reads.snapshot.push(...new ClusterState(ctx.options, new Keyspace(trees.snapshot)).ignoredByClassReads())
    await preload(trees.snapshot, trees.manifest, reads, loader, ctx.context.nodes.budget * PRELOAD_SHARE, ctx.pause)
    // New options derive the whole cluster again: load it level by level, not node by node as the scan would.
    if (await runLoading(() => rederivesAll(trees.snapshot, ctx.options), loader)) await walkGeneration(base!, loader, ctx.context, { leaves: true })
  }
  // Before the request's events, so that one of them for the same Secret comes after.
  const judged = trees ? await judgedSecretEvents(await runLoading(() => unjudgedSecrets(trees.snapshot), loader)) : []
  const all = judged.length > 0 ? [...judged, ...events] : events
  // In slices: a resync's commit computes for hundreds of milliseconds. The trees are immutable and the engine is this call's own, so its result is the same.
  return runLoadingInSlices(() => new IncrementalCluster(trees, ctx.options, ctx.context).steps(all), loader, ctx.pause)
}

/**
 * The loads (rounds) after which a commit asked to split stops: a commit of 250 Ingresses at
 * 20,000 objects under a 64 MB heap ran 230 times, each run computing all 250 again (82 s).
 */
export const MAX_LOADS = 32

/** A commit's loader that stops it once its hold is exceeded or it has loaded MAX_LOADS times (see CommitContext.splitOverHold). */
class HoldBoundLoader extends NodeLoader {
  constructor(
    store: ObjectStore,
    keys: ClusterKeys,
    private readonly tree: TreeContext,
    private readonly cluster: string,
    private readonly events: number,
  ) {
    super(store, keys, tree)
  }

  override load(nodes: readonly { space: string; sha256: string }[]): Promise<void> {
    if (this.tree.nodes.holdExceeded || this.stats.rounds >= MAX_LOADS) throw new CommitTooLarge(this.cluster, this.events)
    return super.load(nodes)
  }

  /** Its hold ran out, so the nodes it lost were not kept: fewer events at a time. */
  override lost(nodes: readonly { sha256: string }[]): Error {
    return this.tree.nodes.holdExceeded ? new CommitTooLarge(this.cluster, this.events) : super.lost(nodes)
  }
}

/** HEAD after a commit of `latest`: the next generation, or while pinned the same one with `latest` moved on. */
function nextHead(current: Head | undefined, latest: CommittedState, clock: Clock): Head {
  if (current?.pin) return { ...current, revision: current.revision + 1, pin: { ...current.pin, latest, held: current.pin.held + 1 } }
  return {
    generation: (current?.generation ?? 0) + 1,
    revision: (current?.revision ?? 0) + 1,
    ...latest,
    parent: current?.manifest ?? null,
    committedAt: clock.now().toISOString(),
  }
}

/** How long until the garbage collector's hold on HEAD ends (0 when there is none, or it has lapsed). */
function collectingUntil(head: Head, clock: Clock): number {
  if (!head.collecting) return 0
  return Math.max(0, Date.parse(head.collecting.until) - clock.now().getTime())
}

/** 25 ms doubling per attempt, jittered by ±50%, so racing writers spread out. */
function backoff(attempt: number, clock: Clock): number {
  return 25 * 2 ** (attempt - 1) * (0.5 + clock.random())
}

async function writeCreated(store: ObjectStore, keys: ClusterKeys, applied: Applied, written: Committed['written']): Promise<void> {
  const unique = new Map<string, NewNode>()
  for (const node of [...applied.created.snapshot, ...applied.created.content, ...applied.created.metadata]) unique.set(`${node.space}/${node.sha256}`, node)
  const queue = [...unique.values()]
  const worker = async () => {
    for (let node = queue.pop(); node; node = queue.pop()) {
      await store.put(keys.node(node.space, node.sha256), await nodeBody(node.text, applied.snapshot.context.gzip))
      if (node.space === 'nodes') written.nodes++
      else written.blobs++
      written.bytes += utf8Length(node.text)
    }
  }
  await Promise.all(Array.from({ length: Math.min(WRITE_CONCURRENCY, queue.length) }, worker))
}
