import { pinSummary, workingState, type PinSummary } from '../reading/head.ts'
import { readHead } from '../reading/read-head.ts'
import { commitEvents, type CommitContext, type Committed } from '../commit/commit-events.ts'
import { NodeLoader } from '../reading/node-loader.ts'
import { clusterKeys } from '../keys/cluster-keys.ts'
import { loadIgnoredIngresses } from '../fleet/ignored-ingresses.ts'
import { committedRejections } from './committed-rejections.ts'
import { putIngressWarnings } from './write-warnings.ts'
import { objectChange, type WatchEvent } from '../incremental/watch-event.ts'
import { describeRef, isRecord, objectKey, objectRef } from '../kube/objects.ts'
import { tlsSecretProblems } from '../kube/tls-secret-check.ts'
import type { IgnoredIngresses } from '../model/cluster-state.ts'
import type { AnnotationWarning } from '../model/ingress-annotations.ts'
import type { Rejection } from '../model/rejection.ts'
import { utf8Length } from '../tree/tree-shape.ts'
import { runSteps, runToEnd, type Pause } from '../slices.ts'
import { yieldToEventLoop } from '../yield-to-event-loop.ts'

/** What a write answers: the generation now current, what changed, whether HAProxy reloads, and what was refused. */
export interface IngestResult {
  generation: number | null
  manifest: string | null
  /** False when the events changed nothing: no generation was made. */
  committed: boolean
  changed: { files: number; bytes: number }
  reload: boolean
  reasons: string[]
  /** Objects of this request that are not served, with the reason. */
  rejected: Rejection[]
  /**
   * Annotations of this request's Ingresses that hapedge does not honour (each served without
   * them). ingest lists them all; an answer lists the first ANSWER_WARNINGS (capWarnings).
   */
  warnings: AnnotationWarning[]
  /** How many warnings in all. */
  warningCount: number
  /**
   * The cluster's Ingresses that are not served because of their class (not rejections): of other
   * classes, and without one while this cluster's class is not the default IngressClass. Null
   * when nothing was applied.
   */
  ignored: IgnoredIngresses | null
  /** Events dropped as repeats of what was last applied to their object (the same resourceVersion: a retried request). */
  stale: number
  /** Set while the cluster is pinned by a rollback: `generation` stays served, and this write is held until release. */
  pinned?: PinSummary
}

/**
 * Commits a request's events, in chunks of at most `chunk` so that memory stays bounded
 * whatever the batch (each chunk is a consistent generation), or in one go when they fill the
 * cluster (fillsCluster), and reports on the objects the request named.
 */
export async function ingest(ctx: CommitContext, received: readonly WatchEvent[], chunk = 2000): Promise<IngestResult> {
  const pause = ctx.pause ?? yieldToEventLoop
  const events = await judgeTlsSecrets(received, pause)
  const result: IngestResult = {
    generation: null,
    manifest: null,
    committed: false,
    changed: { files: 0, bytes: 0 },
    reload: false,
    reasons: [],
    rejected: [],
    warnings: [],
    warningCount: 0,
    ignored: null,
    stale: 0,
  }
  let last: Committed | undefined
  const files = new Set<string>()
  // A Set: a full resync's plan gives a reason per new backend, ten thousand at 20,000 Ingresses, and a list's `includes` made that quadratic.
  const reasons = new Set<string>()
  const size = events.length > chunk && (await fillsCluster(ctx, events)) ? events.length : chunk
  for (let start = 0; start < events.length || !last; start += size) {
    // Between two chunks: the next one's computation would otherwise begin in the last one's final continuation.
    if (last) await pause()
    last = await commitEvents(ctx, events.slice(start, start + size), start + size >= events.length)
    const { applied } = last
    if (!applied) continue
    result.stale += applied.stale
    if (!last.committed) continue
    result.committed = true
    for (const path of applied.files) files.add(path)
    for (const blob of applied.created.content) result.changed.bytes += utf8Length(blob.text)
    result.reload ||= applied.plan.reload
    for (const reason of applied.plan.reasons) reasons.add(reason)
  }
  result.changed.files = files.size
  result.reasons = [...reasons]
  result.generation = last.head?.generation ?? null
  result.manifest = last.head?.manifest ?? null
  const pinned = pinSummary(last.head)
  if (pinned) result.pinned = pinned
  // The last commit told of its generation as HEAD named it; one that changed nothing did not, while an earlier one did change.
  else if (result.committed && !last.announced && result.generation !== null && result.manifest !== null)
    ctx.committed?.({ generation: result.generation, manifest: result.manifest })
  if (last.applied) {
    const put = await runSteps(putObjectSteps(events), pause)
    result.rejected = await rejectionsOf(ctx, last, put.named)
    result.warnings = await putIngressWarnings(ctx, last.applied.snapshot, put.ingresses, pause)
    result.warningCount = result.warnings.length
    const { snapshot, generation } = last.applied
    result.ignored = await loadIgnoredIngresses({ snapshot, manifest: generation.manifest }, new NodeLoader(ctx.store, clusterKeys(ctx.cluster), ctx.context))
  }
  return result
}

/**
 * Whether the events fill a cluster rather than change it: it has no snapshot yet, or one of
 * fewer entries than there are events (a first resync, or one that replaces nearly everything).
 * Those commit in one go: in chunks, each commit rewrote most of the nodes the one before wrote
 * (16 commits at 20,000 Ingresses, each writing thousands of nodes) for a state no one reads.
 * Events that fill a cluster are a request's, already in memory; its commit computes in slices.
 */
async function fillsCluster(ctx: CommitContext, events: readonly WatchEvent[]): Promise<boolean> {
  const current = await readHead(ctx.store, clusterKeys(ctx.cluster))
  return !current || workingState(current.head).snapshot.count < events.length
}

/**
 * Secrets checked per slice: WebCrypto imports a key synchronously, and a slice's checks settle
 * as one chain of microtasks, so a resync's thousands of Secrets checked at once held the thread
 * for seconds.
 */
export const TLS_CHECK_SLICE = 32

/**
 * The events, each TLS Secret they put judged once, here, so the commit (and its retries) read
 * a Secret HAProxy could not load as invalid. Checked a slice at a time, pausing between slices.
 */
async function judgeTlsSecrets(events: readonly WatchEvent[], pause: Pause): Promise<readonly WatchEvent[]> {
  const put = events.filter((event) => event.type !== 'DELETED').map((event) => event.object)
  const secrets = put.filter((object) => isRecord(object) && object.kind === 'Secret')
  const problems = new Map<unknown, string>()
  for (let start = 0; start < secrets.length; start += TLS_CHECK_SLICE) {
    if (start > 0) await pause()
    for (const [object, problem] of await tlsSecretProblems(secrets.slice(start, start + TLS_CHECK_SLICE))) problems.set(object, problem)
  }
  if (problems.size === 0) return events
  return events.map((event) => {
    const tlsProblem = event.type === 'DELETED' ? undefined : problems.get(event.object)
    return tlsProblem === undefined ? event : { ...event, tlsProblem }
  })
}

/** How rejections name the objects that events put (`Ingress ns/name`). */
export function namedObjects(events: readonly WatchEvent[]): Set<string> {
  return runToEnd(putObjectSteps(events)).named
}

/**
 * What the events put, read once, a step per event (a full resync puts 40,000 objects, each read
 * as the engine reads it): the objects as rejections name them, and the Ingresses' keys their
 * warnings are stored under.
 */
function* putObjectSteps(events: readonly WatchEvent[]): Generator<void, { named: Set<string>; ingresses: Set<string> }> {
  const named = new Set<string>()
  const ingresses = new Set<string>()
  for (const event of events) {
    yield
    const change = objectChange(event)
    if (!('put' in change)) continue
    const ref = change.put.status === 'object' ? objectRef(change.put.object) : change.put.ref
    named.add(describeRef(ref))
    if (change.put.status === 'object' && ref.kind === 'Ingress') ingresses.add(objectKey(ref))
  }
  return { named, ingresses }
}

/** The rejections that name an object of this request (`named`: see putObjectSteps). */
async function rejectionsOf(ctx: CommitContext, committed: Committed, named: ReadonlySet<string>): Promise<Rejection[]> {
  if (named.size === 0) return []
  // The snapshot this write's engine built, read as it is: nothing is derived again.
  const all = await committedRejections(committed.applied!.snapshot, new NodeLoader(ctx.store, clusterKeys(ctx.cluster), ctx.context))
  return all.filter((rejection) => named.has(rejection.object))
}
