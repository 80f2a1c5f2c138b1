import { Hono, type Context } from 'hono'
import { z } from 'zod'
import {
  resyncBeginBody,
  type ResyncBegunAnswer,
  type ResyncFinishAnswer,
  type ResyncPageAnswer,
  type ResyncWholeAnswer,
} from '../../../core/api/resync-answers.ts'
import { objectList } from '../../../core/ingest/request-bodies.ts'
import { clusterKeys, type ClusterKeys } from '../../../core/keys/cluster-keys.ts'
import { optionsOf } from '../../../core/registry/cluster-record.ts'
import { workingState } from '../../../core/reading/head.ts'
import { NodeLoader } from '../../../core/reading/node-loader.ts'
import { readHead } from '../../../core/reading/read-head.ts'
import { runLoading } from '../../../core/reading/run-loading.ts'
import { SnapshotReader } from '../../../core/reading/snapshot-reader.ts'
import { committedWarnings } from '../../../core/reading/committed-warnings.ts'
import { beginSession } from '../../../core/resync/begin.ts'
import { finishSlice, type FinishDeps } from '../../../core/resync/finish.ts'
import { stagePage } from '../../../core/resync/page.ts'
import { readPageKeys, sessionObjects, storedPages, storePage } from '../../../core/resync/page-store.ts'
import { sampleOf, rangeStarts } from '../../../core/resync/stale-ranges.ts'
import {
  beginFinish,
  hasExpired,
  newSession,
  parseSession,
  renewed,
  SESSION_ID,
  sessionText,
  type FinishProgress,
  type ResyncSession,
} from '../../../core/resync/session.ts'
import { SNAPSHOT_SHAPE } from '../../../core/snapshot/keyspace.ts'
import { Tree, type TreeContext } from '../../../core/tree/tree.ts'
import type { AppEnv } from '../app-env.ts'
import type { AppVariables } from '../http/auth.ts'
import { HttpError } from '../http/http-error.ts'
import { readJson, readOptionalJson } from '../http/read-body.ts'
import { write } from './ingestion.ts'

type ClusterContext = Context<{ Variables: AppVariables }>

/** Pages are numbered from 0; a resync of more pages than this would be more objects than a cluster may send. */
const MAX_PAGE = 999_999

const finishBody = z.strictObject({
  pages: z
    .number()
    .int()
    .min(0)
    .max(MAX_PAGE + 1),
})

/**
 * A resync in pages, for clusters too large for one `PUT …/objects`: begin a session, send its
 * pages (any order; a page sent again replaces itself), then finish it, as often as it answers
 * 202, until it answers the write answer. Each page stages only its items that differ from the
 * cluster, and the finish applies them and deletes what no page listed in slices of a bounded
 * size (`limits.resync`), recording its progress so that a finish interrupted anywhere resumes.
 * A session abandoned (DELETE) or expired before its finish changes nothing.
 */
export function resyncSessionRoutes(env: AppEnv) {
  const routes = new Hono<{ Variables: AppVariables }>()
  const budget = env.limits.resync

  routes.post('/resync', async (c) => {
    // A list this deployment holds whole costs less in one PUT …/objects than paged (see ResyncBudget.wholeListItems).
    const size = await readOptionalJson(c.req.raw, env.limits.bodyBytes, resyncBeginBody)
    const whole = { items: Math.min(budget.wholeListItems, env.limits.objects), bytes: env.limits.bodyBytes }
    if (size.items !== undefined && size.bytes !== undefined && size.items <= whole.items && size.bytes <= whole.bytes)
      return c.json({ whole: true, ...whole } satisfies ResyncWholeAnswer)
    const keys = keysOf(c)
    const session = await beginSession(env.store, keys, c.get('record').id, newSession(crypto.randomUUID(), env.clock.now(), budget.ttlMs, budget.pageItems))
    return c.json({ session: session.session, expiresAt: session.expiresAt, pageItems: session.pageItems } satisfies ResyncBegunAnswer, 201)
  })

  routes.put('/resync/:session/pages/:page', async (c) => {
    c.get('turn').background()
    const keys = keysOf(c)
    const { session } = await liveSession(env, keys, c.req.param('session'))
    if (session.finish) throw new HttpError(409, `resync session ${session.session} is finishing: its pages can no longer change`)
    const page = pageNumber(c.req.param('page'))
    const list = await readJson(c.req.raw, Math.min(env.limits.bodyBytes, budget.pageBytes), objectList(session.pageItems), env.turns.pause)
    const record = c.get('record')
    const context = env.caches.for(record.id)
    const { snapshot, loader } = await openSnapshot(env, keys, context)
    const staged = await stagePage(snapshot, list.items, optionsOf(record), loader, env.hash, env.turns.pause)
    await storePage(env.store, keys, session.session, page, staged)
    return c.json({ page, items: list.items.length, changed: staged.items.items.length } satisfies ResyncPageAnswer)
  })

  routes.post('/resync/:session/finish', async (c) => {
    const operationsBefore = env.storeOperations()
    c.get('turn').background()
    const keys = keysOf(c)
    const { pages } = await readJson(c.req.raw, env.limits.bodyBytes, finishBody)
    const loaded = await liveSession(env, keys, c.req.param('session'))
    const { session } = loaded
    let etag = loaded.etag
    const save = async (next: ResyncSession) => {
      const saved = await env.store.put(keys.resyncRecord(session.session), sessionText(renewed(next, env.clock.now(), budget.ttlMs)), { ifMatch: etag })
      if (saved === undefined) throw new HttpError(409, `another finish of resync session ${session.session} went on meanwhile; call finish again`)
      etag = saved
    }
    if (session.finish && session.finish.pages !== pages)
      throw new HttpError(409, `resync session ${session.session} began its finish with ${session.finish.pages} pages, not ${pages}`, 'pages')
    if (session.finish?.answer) return c.json({ ...session.finish.answer, done: true, resync: finishedCounts(session.finish) } satisfies ResyncFinishAnswer)
    let progress = session.finish
    if (!progress) {
      progress = await finishBegun(env, keys, session.session, pages)
      await save({ ...session, finish: progress })
    }
    const outcome = await finishSlice(
      finishDeps(env, c, keys, session, (next) => save({ ...session, finish: next }), operationsBefore),
      progress,
    )
    if (outcome.done) {
      // The record alone stays, to answer a finish sent again, until the session's time is up.
      const record = keys.resyncRecord(session.session)
      await env.store.delete((await sessionObjects(env.store, keys, session.session)).filter((key) => key !== record))
      return c.json({ ...outcome.answer, done: true, resync: finishedCounts(outcome.progress) } satisfies ResyncFinishAnswer)
    }
    const { phase, nextPage } = outcome.progress
    if (phase === 'done') throw new Error('a finish not done is in phase done')
    return c.json({ done: false, progress: { phase, pages, nextPage, ...finishedCounts(outcome.progress) } } satisfies ResyncFinishAnswer, 202)
  })

  // Abandons the session: its pages are deleted, and what a finish already applied stays.
  routes.delete('/resync/:session', async (c) => {
    const keys = keysOf(c)
    const id = sessionId(c.req.param('session'))
    const objects = await sessionObjects(env.store, keys, id)
    if (objects.length === 0) throw unknownSession(id)
    // The record first: from then on the session is unknown, whatever deleting the pages meets.
    await env.store.delete([keys.resyncRecord(id)])
    await env.store.delete(objects)
    return c.body(null, 204)
  })
  return routes
}

const keysOf = (c: ClusterContext) => clusterKeys(c.get('record').id)

function sessionId(text: string): string {
  if (!SESSION_ID.test(text)) throw new HttpError(400, `${JSON.stringify(text)} is not a resync session id (what POST …/resync answers)`, 'session')
  return text
}

function pageNumber(text: string): number {
  const page = Number(text)
  if (!/^\d{1,6}$/.test(text) || page > MAX_PAGE) throw new HttpError(400, `page ${JSON.stringify(text)} must be a whole number from 0 to ${MAX_PAGE}`, 'page')
  return page
}

const unknownSession = (id: string) => new HttpError(404, `no resync session ${id} (never begun, abandoned, or collected after it expired)`, 'session')

/** The session's record and its entity tag: 404 when there is none, 410 once it has expired (it changes nothing then). */
async function liveSession(env: AppEnv, keys: ClusterKeys, text: string): Promise<{ session: ResyncSession; etag: string }> {
  const id = sessionId(text)
  const stored = await env.store.get(keys.resyncRecord(id))
  const session = stored && parseSession(stored.body)
  if (!stored || !session) throw unknownSession(id)
  // A finished session answers its finish again after its time: nothing is left to change.
  if (hasExpired(session, env.clock.now()) && !session.finish?.answer)
    throw new HttpError(410, `resync session ${id} expired at ${session.expiresAt}; begin another`, 'session')
  return { session, etag: stored.etag }
}

/** The progress of a finish that begins: every page 0..pages-1 stored (a 409 names those missing or beyond), their bounds and the scan's ranges. */
async function finishBegun(env: AppEnv, keys: ClusterKeys, session: string, pages: number) {
  const stored = new Set(await storedPages(env.store, keys, session))
  const missing = Array.from({ length: pages }, (_, page) => page).filter((page) => !stored.has(page))
  if (missing.length > 0) throw new HttpError(409, `resync session ${session} lacks ${pagesNamed(missing)} of ${pages}; send them, then finish again`, 'pages')
  const beyond = [...stored].filter((page) => page >= pages)
  if (beyond.length > 0) throw new HttpError(409, `resync session ${session} holds ${pagesNamed(beyond)}, beyond the ${pages} its finish names`, 'pages')
  const bounds: ([string, string] | null)[] = []
  const samples: ReturnType<typeof sampleOf>[] = []
  for (let page = 0; page < pages; page++) {
    const listed = (await readPageKeys(env.store, keys, session, page)).keys
    bounds.push(listed.length === 0 ? null : [listed[0]!, listed.at(-1)!])
    samples.push(sampleOf(listed))
  }
  return beginFinish(bounds, rangeStarts(samples, env.limits.resync.rangeKeys))
}

const pagesNamed = (pages: number[]) =>
  `page${pages.length === 1 ? '' : 's'} ${pages.slice(0, 10).join(', ')}${pages.length > 10 ? ` and ${pages.length - 10} more` : ''}`

async function openSnapshot(env: AppEnv, keys: ClusterKeys, context: TreeContext) {
  const current = await readHead(env.store, keys)
  return {
    snapshot: current ? new Tree(SNAPSHOT_SHAPE, workingState(current.head).snapshot, context) : undefined,
    loader: new NodeLoader(env.store, keys, context),
  }
}

/** What a finish did, from its progress: the staged items applied and superseded, the stale objects deleted, the unlisted ones kept as newer. */
const finishedCounts = ({ applied, superseded, deleted, kept }: FinishProgress) => ({ applied, superseded, deleted, ...(kept !== undefined ? { kept } : {}) })

function finishDeps(
  env: AppEnv,
  c: ClusterContext,
  keys: ClusterKeys,
  { session, begin }: ResyncSession,
  save: FinishDeps['save'],
  operationsBefore: number,
): FinishDeps {
  const context = env.caches.for(c.get('record').id)
  return {
    store: env.store,
    keys,
    session,
    // A session begun before its begin was recorded keeps its finish as it was: see FinishDeps.begin.
    ...(begin !== undefined ? { begin: begin?.snapshot ?? null } : {}),
    hash: env.hash,
    budget: env.limits.resync,
    context,
    open: (scanContext) => openSnapshot(env, keys, scanContext),
    apply: (events, split) => write(env, c, events, undefined, undefined, split),
    rejections: async () => {
      const { snapshot, loader } = await openSnapshot(env, keys, context)
      return snapshot ? runLoading(() => new SnapshotReader(snapshot).rejections(), loader) : []
    },
    warnings: async () => {
      const { snapshot, loader } = await openSnapshot(env, keys, context)
      return snapshot ? committedWarnings(snapshot, loader) : []
    },
    save,
    now: () => env.clock.now().getTime(),
    operations: () => env.storeOperations() - operationsBefore,
    pause: env.turns.pause,
  }
}
