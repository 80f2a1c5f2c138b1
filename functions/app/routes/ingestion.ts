import { Hono, type Context } from 'hono'
import { clusterKeys } from '../../../core/keys/cluster-keys.ts'
import type { CommitContext } from '../../../core/commit/commit-events.ts'
import { NodeLoader } from '../../../core/reading/node-loader.ts'
import { openTrees } from '../../../core/reading/open-trees.ts'
import { readHead } from '../../../core/reading/read-head.ts'
import { workingState } from '../../../core/reading/head.ts'
import type { WatchEvent } from '../../../core/incremental/watch-event.ts'
import { auditEventListSchema, watchEventsFromAudit } from '../../../core/ingest/audit-events.ts'
import { ingest } from '../../../core/ingest/ingest.ts'
import type { AuditAnswer, WriteAnswer } from '../../../core/api/write-answer.ts'
import { eventsBody, objectList } from '../../../core/ingest/request-bodies.ts'
import { fillingResync, resyncOfListed } from '../../../core/ingest/resync.ts'
import { ListReader } from '../../../core/ingest/listed-state.ts'
import { isRecord, refOfKey } from '../../../core/kube/objects.ts'
import { latestReports } from '../../../core/ingest/latest-reports.ts'
import { capWarnings } from '../../../core/ingest/write-warnings.ts'
import { describeRef } from '../../../core/kube/objects.ts'
import { runInSlices } from '../../../core/slices.ts'
import { optionsOf } from '../../../core/registry/cluster-record.ts'
import type { AppEnv } from '../app-env.ts'
import { inBackground } from '../http/in-background.ts'
import { FOREGROUND_EVENTS } from '../services/turns.ts'
import { WriteQueue } from '../services/write-queue.ts'
import type { AppVariables } from '../http/auth.ts'
import { readJson } from '../http/read-body.ts'
import { touchLastEvent } from '../services/last-event.ts'

type ClusterContext = Context<{ Variables: AppVariables }>

/** The three writes: watch events, the audit webhook's batches, and a full resync. */
export function ingestionRoutes(env: AppEnv) {
  const routes = new Hono<{ Variables: AppVariables }>()

  routes.post('/events', async (c) => {
    const { events } = await readJson(c.req.raw, env.limits.bodyBytes, eventsBody(env.limits.events))
    return c.json((await write(env, c, events)) satisfies WriteAnswer)
  })

  // Answers 200 even when some items were refused: the webhook retries any other answer, and the same batch would fail the same way.
  routes.post('/audit', async (c) => {
    const list = await readJson(c.req.raw, env.limits.bodyBytes, auditEventListSchema(env.limits.auditItems))
    const { events, skipped, problems } = watchEventsFromAudit(list)
    const result = await write(
      env,
      c,
      events.map((change) => change.event),
    )
    return c.json({ ...result, skipped, problems } satisfies AuditAnswer)
  })

  routes.put('/objects', async (c) => {
    c.get('turn').background()
    const commit = commitContext(env, c)
    const keys = clusterKeys(commit.cluster)
    // Read once, before the body: the list is compared with this snapshot, and the commit's compare-and-swap meets a HEAD moved since.
    const current = await readHead(env.store, keys)
    // Over a snapshot, each item is read as it is parsed and kept as its text (ListReader); into an empty cluster, every item is sent.
    const reader = current ? new ListReader(commit.options) : undefined
    const list = await readJson(
      c.req.raw,
      env.limits.bodyBytes,
      objectList(env.limits.objects),
      env.turns.pause,
      reader && ((value, text, member) => (member === 'items' && isRecord(value) ? (reader.read(value, text), READ_ITEM) : value)),
    )
    const loader = new NodeLoader(env.store, keys, commit.context)
    const trees = current && (await openTrees(workingState(current.head), loader, commit.context, keys))
    // A list of tens of thousands of objects takes seconds to compare: in the background, in slices.
    const { keys: listed, events } =
      reader && trees ? await resyncOfListed(trees.snapshot, reader.states(), loader, env.turns.pause) : await fillingResync(list.items, env.turns.pause)
    // The answer names the rejections of every listed object, sent or not (unchanged objects are not sent).
    const named = await runInSlices(describedKeys(listed), env.turns.pause)
    return c.json((await write(env, c, events, c.get('record'), named)) satisfies WriteAnswer)
  })
  return routes
}

/** What the list's array holds in place of an item a ListReader read: the schema sees an object there, as it would have. */
const READ_ITEM = Object.freeze({})

/** How rejections name the objects at `keys` (`Ingress ns/name`), as steps (see runInSlices): a resync lists tens of thousands. */
function* describedKeys(keys: readonly string[]): Generator<void, Set<string>> {
  const named = new Set<string>()
  for (const key of keys) {
    named.add(describeRef(refOfKey(key)))
    yield
  }
  return named
}

export function commitContext(env: AppEnv, c: ClusterContext, record = c.get('record')): CommitContext {
  return { store: env.store, cluster: record.id, options: optionsOf(record), context: env.caches.for(record.id), clock: env.clock }
}

/**
 * Commits a request's events (with others waiting for the same cluster) and answers what
 * changed, with the rejections that name the events' objects (or the `named` ones). A commit renders under the settings its last request read, so a write that follows
 * a change of the cluster's record never commits the old ones.
 */
export async function write(
  env: AppEnv,
  c: ClusterContext,
  events: readonly WatchEvent[],
  record = c.get('record'),
  named?: ReadonlySet<string>,
  splitOverHold = false,
) {
  // The agents hear of the generation once HEAD names it, not after the answer's reads (of a merged commit, through its latest request).
  const agents = env.push.listAgents(record)
  const commit: CommitContext = { ...commitContext(env, c, record), splitOverHold, committed: (head) => inBackground(c, env.push.push(record, head, agents)) }
  let queue = env.queues.get(commit.cluster)
  if (!queue) {
    queue = new WriteQueue<CommitContext>(
      // Only a request committed alone may be stopped for its size: another's events would fail with it.
      (merged, latest, alone) => commitInTurn(env, alone ? latest : { ...latest, splitOverHold: false }, merged),
      env.limits.eventsPerCommit,
      () => env.queues.delete(commit.cluster),
    )
    env.queues.set(commit.cluster, queue)
  }
  // Waiting in the cluster's queue holds no foreground: the commit takes its own turn (commitInTurn).
  const [submitted] = await c
    .get('turn')
    .aside(() => Promise.all([queue.submit(events, commit), touchLastEvent(env.store, clusterKeys(commit.cluster), env.clock.now())]))
  const reports = named && (await latestReports(commit, named))
  const result = reports ? { ...submitted, rejected: reports.rejected, ...capWarnings(reports.warnings) } : submitted
  // Even a write that committed nothing writes the status: one that failed before is repaired here.
  inBackground(c, env.mirror.mirror(record, result.rejected, result.warnings))
  env.metrics.count('hapedge_events_total', 'Events received, by cluster.', { cluster: commit.cluster }, events.length)
  env.metrics.count('hapedge_commits_total', 'Writes, by cluster and outcome.', {
    cluster: commit.cluster,
    outcome: !result.committed ? 'unchanged' : result.pinned ? 'held' : 'committed',
  })
  if (result.reload) env.metrics.count('hapedge_reloads_total', 'Generations that need an HAProxy reload, by cluster.', { cluster: commit.cluster })
  return result
}

/** A small write's commit runs in the foreground; a larger one (a resync's) in the background, pausing between its slices for small ones. */
function commitInTurn(env: AppEnv, ctx: CommitContext, events: readonly WatchEvent[]) {
  if (events.length <= FOREGROUND_EVENTS) return env.turns.foreground(() => ingest(ctx, events, env.limits.eventsPerCommit))
  return ingest({ ...ctx, pause: env.turns.pause }, events, env.limits.eventsPerCommit)
}
