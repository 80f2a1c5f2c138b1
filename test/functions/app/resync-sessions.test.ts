import { describe, expect, it } from 'vitest'
import type { z } from 'zod'
import { errorBody } from '../../../core/api/error-body.ts'
import { resyncBegunAnswer, resyncFinishedAnswer, resyncPageAnswer, resyncProgressAnswer, resyncWholeAnswer } from '../../../core/api/resync-answers.ts'
import { clusterKeys } from '../../../core/keys/cluster-keys.ts'
import { objectKey, objectRef, readObject } from '../../../core/kube/objects.ts'
import type { ObjectStore } from '../../../core/ports/object-store.ts'
import { readGeneration } from '../../../core/reading/read-generation.ts'
import { readHead } from '../../../core/reading/read-head.ts'
import { fullRebuild } from '../../../core/render/full-rebuild.ts'
import { DEFAULT_RESYNC_BUDGET, type ResyncBudget } from '../../../core/resync/budget.ts'
import { REASONS_KEPT } from '../../../core/resync/finish.ts'
import { createMemoryStore } from '../../../functions/adapters/storage/memory-store.ts'
import { runGarbageJob } from '../../../functions/platforms/composition/garbage-job.ts'
import { sha256Text } from '../../../core/hash.ts'
import { added, app, coldContext, deleted, instantClock, modified } from '../../support/contracts/cluster-apps.ts'
import { toTlsSecret } from '../../support/certificates.ts'
import { fixtureCertificate } from '../../support/fixtures.ts'
import { faultyStore } from '../../support/store-faults.ts'
import { harness } from './app-harness.ts'
import type { CacheBudget } from '../../../functions/app/services/node-caches.ts'
import { parseSession, sessionText } from '../../../core/resync/session.ts'
import { collectGarbage } from '../../../core/garbage/collect-garbage.ts'
import { CorruptObject } from '../../../core/reading/errors.ts'
import { NodeLoader } from '../../../core/reading/node-loader.ts'
import { walkGeneration } from '../../../core/reading/walk-generation.ts'

type Item = Record<string, unknown>

/** Small budgets, so a handful of objects takes several pages and several finish requests. */
const SMALL: ResyncBudget = { ...DEFAULT_RESYNC_BUDGET, pageItems: 4, finishItems: 4, commitItems: 3, finishDeletions: 3, scanEntries: 5, rangeKeys: 3 }

const list = (items: readonly unknown[]) => ({ apiVersion: 'v1', kind: 'List', metadata: {}, items })
const keyOf = (object: unknown) => {
  const read = readObject(object)
  return read.status === 'object' ? objectKey(objectRef(read.object)) : read.status === 'invalid' ? objectKey(read.ref) : ''
}
/** The objects sorted by key and cut into pages, as the forwarder sends them. */
const pagesOf = (objects: readonly Item[], size: number) => {
  const sorted = [...objects].sort((a, b) => (keyOf(a) < keyOf(b) ? -1 : 1))
  return Array.from({ length: Math.ceil(sorted.length / size) }, (_, page) => sorted.slice(page * size, page * size + size))
}
const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i)
const apps = (ns: readonly number[]) => ns.flatMap((n) => app(n))

async function parsed<Schema extends z.ZodType>(schema: Schema, answer: Response, status: number): Promise<z.infer<Schema>> {
  const body = await answer.json()
  expect({ status: answer.status, body }).toMatchObject({ status })
  const result = schema.safeParse(body)
  expect(result.error?.issues ?? []).toEqual([])
  return result.data as z.infer<Schema>
}

async function currentFiles(store: ObjectStore, cluster: string) {
  const head = await readHead(store, clusterKeys(cluster))
  return readGeneration(store, cluster, head!.head.manifest, coldContext())
}

async function resyncKeys(store: ObjectStore, cluster: string) {
  const keys: string[] = []
  for await (const { key } of store.list(clusterKeys(cluster).resyncSessions)) keys.push(key)
  return keys
}

function setup(options: { store?: ObjectStore; budget?: ResyncBudget; clock?: ReturnType<typeof instantClock>; cache?: CacheBudget } = {}) {
  const clock = options.clock ?? instantClock()
  const h = harness({
    clock,
    limits: { resync: options.budget ?? SMALL },
    ...(options.store ? { store: options.store } : {}),
    ...(options.cache ? { cache: options.cache } : {}),
  })
  const base = (cluster: string) => `/v1/clusters/${cluster}/resync`
  const begin = async (cluster: string, token: string) => parsed(resyncBegunAnswer, await h.call('POST', base(cluster), token), 201)
  const page = (cluster: string, token: string, session: string, n: number | string, items: unknown) =>
    h.call('PUT', `${base(cluster)}/${session}/pages/${n}`, token, items)
  const finish = (cluster: string, token: string, session: string, body: unknown) => h.call('POST', `${base(cluster)}/${session}/finish`, token, body)
  /** Finishes until done, counting the 202s; `afterEach` runs after each finish request. */
  const finishAll = async (cluster: string, token: string, session: string, pages: number, afterEach?: () => Promise<void>) => {
    for (let partial = 0; ; partial++) {
      const answer = await finish(cluster, token, session, { pages })
      await afterEach?.()
      if (answer.status === 202) {
        await parsed(resyncProgressAnswer, answer, 202)
        continue
      }
      return { answer: await parsed(resyncFinishedAnswer, answer, 200), partial }
    }
  }
  return { ...h, clock, begin, page, finish, finishAll }
}

describe('paged resync sessions (POST …/resync, PUT …/pages/{n}, POST …/finish, DELETE)', () => {
  it('a begin told the size of a list the function takes whole answers 200 "send it whole" and begins no session; a larger list, or none told, begins one', async () => {
    const s = setup({ budget: { ...SMALL, wholeListItems: 10 } })
    const token = await s.register('prod')
    const whole = await parsed(resyncWholeAnswer, await s.call('POST', '/v1/clusters/prod/resync', token, { items: 10, bytes: 5_000 }), 200)
    expect(whole).toEqual({ whole: true, items: 10, bytes: 32 * 1024 * 1024 })
    expect(await resyncKeys(s.store, 'prod')).toEqual([])
    await parsed(resyncBegunAnswer, await s.call('POST', '/v1/clusters/prod/resync', token, { items: 11, bytes: 5_000 }), 201)
    await parsed(resyncBegunAnswer, await s.call('POST', '/v1/clusters/prod/resync', token, { items: 10, bytes: 32 * 1024 * 1024 + 1 }), 201)
    await s.begin('prod', token)
    expect(await resyncKeys(s.store, 'prod')).toHaveLength(3)
    const wrong = await s.call('POST', '/v1/clusters/prod/resync', token, { items: -1, bytes: 5 })
    expect({ status: wrong.status, body: await wrong.json() }).toMatchObject({ status: 400, body: { error: { path: 'items' } } })
  })

  it('pages in any order, one sent twice, finish in slices: the cluster holds exactly the list, as a full rebuild of it', async () => {
    const s = setup()
    const token = await s.register('prod')
    await s.events('prod', token, apps(range(1, 6)).map(added))
    const listed = apps(range(3, 9))
    const pages = pagesOf(listed, SMALL.pageItems)
    const { session, pageItems, expiresAt } = await s.begin('prod', token)
    expect(pageItems).toBe(SMALL.pageItems)
    expect(Date.parse(expiresAt)).toBe(s.clock.now().getTime() + SMALL.ttlMs)
    // Page 0 first with other items; sent again, it replaces them.
    expect((await s.page('prod', token, session, 0, list(app(40)))).status).toBe(200)
    for (const n of range(0, pages.length).reverse()) {
      const answer = await parsed(resyncPageAnswer, await s.page('prod', token, session, n, list(pages[n]!)), 200)
      expect(answer).toMatchObject({ page: n, items: pages[n]!.length })
    }
    const { answer, partial } = await s.finishAll('prod', token, session, pages.length)
    expect(partial).toBeGreaterThan(0)
    expect(answer).toMatchObject({ done: true, committed: true, reload: true })
    expect(answer.reasons.length).toBeGreaterThan(0)
    // What the finish did, in all its requests: apps 6 to 8 applied, apps 1 and 2 deleted.
    expect(answer.resync).toEqual({ applied: apps(range(6, 9)).length, superseded: 0, deleted: apps(range(1, 3)).length, kept: 0 })
    expect(await currentFiles(s.store, 'prod')).toEqual(fullRebuild(listed).files)
    // A finish called again (a retry whose answer was lost) answers the same.
    expect(await parsed(resyncFinishedAnswer, await s.finish('prod', token, session, { pages: pages.length }), 200)).toEqual(answer)
  })

  /**
   * A resync of 31 apps over 20 stored ones, sent into a second process on the same storage, whose
   * commits read the cluster's nodes from storage, not from a warm cache, and hold at most 4 KiB of them.
   */
  async function coldResync(budget: ResyncBudget) {
    const first = setup({ budget })
    const token = await first.register('prod')
    await first.events('prod', token, apps(range(1, 20)).map(added))
    const s = setup({ budget, store: first.store, cache: { perCluster: 1024 * 1024, clusters: 1, hold: 4 * 1024 } })
    const listed = apps(range(10, 40))
    const pages = pagesOf(listed, budget.pageItems)
    const { session } = await s.begin('prod', token)
    for (const [n, items] of pages.entries()) await parsed(resyncPageAnswer, await s.page('prod', token, session, n, list(items)), 200)
    const commitItems = async () => parseSession((await s.store.get(clusterKeys('prod').resyncRecord(session)))!.body)?.finish?.commitItems
    return { s, token, session, pages, listed, commitItems }
  }

  it('a slice whose commit reads more than the node cache may hold for it is halved, for this request and those after it, down to one item, and ends as a full rebuild', async () => {
    // Below a sixteenth of commitItems (2 of 32), which was a floor: 16 Ingresses that read more than a 64 MB heap's cache holds never committed.
    const { s, token, session, pages, listed, commitItems } = await coldResync({ ...SMALL, pageItems: 32, finishItems: 32, commitItems: 32, growAfter: 1_000 })
    const { answer } = await s.finishAll('prod', token, session, pages.length)
    expect(answer).toMatchObject({ done: true, committed: true })
    expect(await currentFiles(s.store, 'prod')).toEqual(fullRebuild(listed).files)
    expect(await commitItems()).toBe(1)
  })

  it('a slice of one item whose commit reads more than the whole node cache holds commits: it holds all it reads', async () => {
    // Bounded, its hold evicted what it read next without end (at 100,000 objects under a 64 MB heap, one Ingress looped for minutes).
    const budget = { ...SMALL, pageItems: 32, finishItems: 32, commitItems: 1 }
    const { s, token, session, pages, listed } = await coldResync(budget)
    // A third process, whose cache holds 2 KiB of nodes, a split commit 256 characters of them, finishes.
    const finisher = setup({ budget, store: s.store, cache: { perCluster: 2048, clusters: 1, hold: 256 } })
    const { answer } = await finisher.finishAll('prod', token, session, pages.length)
    expect(answer).toMatchObject({ done: true, committed: true })
    expect(await currentFiles(s.store, 'prod')).toEqual(fullRebuild(listed).files)
  })

  it('a halved slice size doubles again once growAfter slices of it have committed, and ends as a full rebuild', async () => {
    // One committed slice per finish request, so the record shows each size the finish went on with.
    const { s, token, session, pages, listed, commitItems } = await coldResync({ ...SMALL, pageItems: 32, finishItems: 1, commitItems: 32, growAfter: 2 })
    const sizes: (number | undefined)[] = []
    const { answer } = await s.finishAll('prod', token, session, pages.length, async () => void sizes.push(await commitItems()))
    expect(answer).toMatchObject({ done: true, committed: true })
    expect(await currentFiles(s.store, 'prod')).toEqual(fullRebuild(listed).files)
    expect(sizes[0]).toBeLessThan(32)
    expect(sizes.some((size, n) => n > 0 && size !== undefined && size > (sizes[n - 1] ?? Number.POSITIVE_INFINITY))).toBe(true)
  })

  it('a slice goes on into the next pages while it has room: a few changed objects on several pages commit together, not a generation per page', async () => {
    const s = setup()
    const token = await s.register('prod')
    await s.events('prod', token, apps(range(1, 9)).map(added))
    const before = (await readHead(s.store, clusterKeys('prod')))!.head.generation
    // Apps 1 and 5 given a new path: their Ingresses are on two pages of 4, one staged item each.
    const listed = range(1, 9).flatMap((n) => app(n, n === 1 || n === 5 ? ['/v2'] : ['/']))
    const pages = pagesOf(listed, SMALL.pageItems)
    const { session } = await s.begin('prod', token)
    const changed: number[] = []
    for (const [n, items] of pages.entries()) changed.push((await parsed(resyncPageAnswer, await s.page('prod', token, session, n, list(items)), 200)).changed)
    expect(changed.filter((count) => count > 0)).toEqual([1, 1])
    const { answer } = await s.finishAll('prod', token, session, pages.length)
    expect(answer).toMatchObject({ done: true, committed: true, generation: before + 1, resync: { applied: 2, superseded: 0, deleted: 0 } })
    expect(await currentFiles(s.store, 'prod')).toEqual(fullRebuild(listed).files)
  })

  it('stages only what differs: an unchanged list stages nothing and commits nothing', async () => {
    const s = setup()
    const token = await s.register('prod')
    const objects = apps(range(1, 4))
    await s.events('prod', token, objects.map(added))
    const before = await readHead(s.store, clusterKeys('prod'))
    const { session } = await s.begin('prod', token)
    const pages = pagesOf(objects, SMALL.pageItems)
    for (const [n, items] of pages.entries()) {
      expect(await parsed(resyncPageAnswer, await s.page('prod', token, session, n, list(items)), 200)).toMatchObject({ changed: 0 })
    }
    const { answer } = await s.finishAll('prod', token, session, pages.length)
    expect(answer).toMatchObject({ committed: false, generation: before!.head.generation })
  })

  it('a finish interrupted anywhere (storage failing mid-slice) resumes where its progress says, and ends as a full rebuild', async () => {
    let failures = 0
    let puts: number | undefined
    const failing = new Set([2, 9, 17, 26, 40, 55])
    const store = faultyStore(createMemoryStore(), (operation, key) => {
      // Once the finish begins, chosen writes fail: tree nodes, HEAD and progress records alike are cut off.
      if (puts === undefined || operation !== 'put' || !key.startsWith('clusters/prod/')) return undefined
      return failing.has(++puts) ? (failures++, new Error('injected: storage went away')) : undefined
    })
    const s = setup({ store })
    const token = await s.register('prod')
    await s.events('prod', token, apps(range(1, 8)).map(added))
    const listed = apps(range(4, 12))
    const pages = pagesOf(listed, SMALL.pageItems)
    const { session } = await s.begin('prod', token)
    for (const [n, items] of pages.entries()) expect((await s.page('prod', token, session, n, list(items))).status).toBe(200)
    puts = 0
    let answer: Response
    let errors = 0
    for (;;) {
      answer = await s.finish('prod', token, session, { pages: pages.length })
      if (answer.status === 200) break
      if (answer.status >= 500) errors++
      else expect(answer.status).toBe(202)
    }
    expect(errors).toBeGreaterThan(0)
    expect(failures).toBeGreaterThan(1)
    expect(await currentFiles(s.store, 'prod')).toEqual(fullRebuild(listed).files)
  }, 20_000)

  it('finish answers 409 naming the pages missing, and goes on once they come', async () => {
    const s = setup()
    const token = await s.register('prod')
    const pages = pagesOf(apps(range(1, 5)), SMALL.pageItems)
    const { session } = await s.begin('prod', token)
    await s.page('prod', token, session, 1, list(pages[1]!))
    const missing = await parsed(errorBody, await s.finish('prod', token, session, { pages: pages.length }), 409)
    expect(missing.error).toEqual({ message: expect.stringContaining(`lacks pages 0, 2 of ${pages.length}`), path: 'pages' })
    for (const n of [0, 2]) await s.page('prod', token, session, n, list(pages[n]!))
    const beyond = await parsed(errorBody, await s.finish('prod', token, session, { pages: 2 }), 409)
    expect(beyond.error.message).toContain('holds page 2, beyond the 2 its finish names')
    await s.finishAll('prod', token, session, pages.length)
    expect(await currentFiles(s.store, 'prod')).toEqual(fullRebuild(apps(range(1, 5))).files)
  })

  it('abandoned (DELETE) or expired, a session changes nothing, and its objects go (at once, or at the garbage job)', async () => {
    const s = setup()
    const token = await s.register('prod')
    await s.events('prod', token, apps([1]).map(added))
    const before = await readHead(s.store, clusterKeys('prod'))

    const abandoned = (await s.begin('prod', token)).session
    await s.page('prod', token, abandoned, 0, list(app(2)))
    expect((await s.call('DELETE', `/v1/clusters/prod/resync/${abandoned}`, token)).status).toBe(204)
    expect(await resyncKeys(s.store, 'prod')).toEqual([])
    expect((await parsed(errorBody, await s.finish('prod', token, abandoned, { pages: 1 }), 404)).error.path).toBe('session')
    expect((await s.call('DELETE', `/v1/clusters/prod/resync/${abandoned}`, token)).status).toBe(404)

    const expired = (await s.begin('prod', token)).session
    await s.page('prod', token, expired, 0, list(app(3)))
    s.clock.advance(SMALL.ttlMs)
    expect((await parsed(errorBody, await s.page('prod', token, expired, 1, list(app(4))), 410)).error.path).toBe('session')
    expect((await parsed(errorBody, await s.finish('prod', token, expired, { pages: 1 }), 410)).error.message).toContain('expired')
    expect(await readHead(s.store, clusterKeys('prod'))).toEqual(before)

    const live = (await s.begin('prod', token)).session
    const { sessions } = await runGarbageJob({ store: s.store, secrets: undefined, hash: sha256Text, cacheChars: 1e6, settings: {}, clock: s.clock })
    expect(sessions).toEqual([{ cluster: 'prod', sessions: 1, objects: 3 }])
    expect(await resyncKeys(s.store, 'prod')).toEqual([clusterKeys('prod').resyncRecord(live)])
  })

  it("a finish that goes on longer than the session's time keeps it live: each step renews it, and it ends as a full rebuild", async () => {
    const s = setup({ budget: { ...SMALL, finishItems: 1, commitItems: 1 } })
    const token = await s.register('prod')
    const listed = apps(range(1, 4))
    const pages = pagesOf(listed, SMALL.pageItems)
    const { session } = await s.begin('prod', token)
    for (const [n, items] of pages.entries()) await s.page('prod', token, session, n, list(items))
    // Each finish request comes 0.6 of the session's time after the one before: its third is past the time it began with.
    const { answer, partial } = await s.finishAll('prod', token, session, pages.length, async () => s.clock.advance(SMALL.ttlMs * 0.6))
    expect(partial).toBeGreaterThan(2)
    expect(answer).toMatchObject({ done: true, committed: true })
    expect(await currentFiles(s.store, 'prod')).toEqual(fullRebuild(listed).files)
    // Left unfinished, a session still expires its time after its last step.
    const idle = (await s.begin('prod', token)).session
    await s.page('prod', token, idle, 0, list(app(9)))
    expect((await s.finish('prod', token, idle, { pages: 1 })).status).toBe(202)
    s.clock.advance(SMALL.ttlMs)
    expect((await parsed(errorBody, await s.finish('prod', token, idle, { pages: 1 }), 410)).error.message).toContain('expired')
  })

  it('a finish request deletes at most finishDeletions stale objects, however many one scan finds, and the next goes on where it stopped', async () => {
    const s = setup()
    const token = await s.register('prod')
    await s.events('prod', token, apps(range(1, 8)).map(added))
    const listed = apps([1])
    const { session } = await s.begin('prod', token)
    await s.page('prod', token, session, 0, list(listed))
    const deletedSoFar = async () => parseSession((await s.store.get(clusterKeys('prod').resyncRecord(session)))!.body)?.finish?.deleted ?? 0
    const perRequest: number[] = []
    for (let before = 0, status = 202; status === 202; ) {
      status = (await s.finish('prod', token, session, { pages: 1 })).status
      const deleted = await deletedSoFar()
      perRequest.push(deleted - before)
      before = deleted
    }
    expect(perRequest.reduce((sum, n) => sum + n, 0)).toBe(apps(range(2, 8)).length)
    expect(Math.max(...perRequest)).toBeLessThanOrEqual(SMALL.finishDeletions)
    expect(await currentFiles(s.store, 'prod')).toEqual(fullRebuild(listed).files)
  })

  it('a write that comes between a page and the finish is newer than the list: the finish does not undo it', async () => {
    const s = setup()
    const token = await s.register('prod')
    await s.events('prod', token, apps([1]).map(added))
    const [ingress, ...rest] = app(1, ['/', '/v1'])
    const { session } = await s.begin('prod', token)
    await s.page('prod', token, session, 0, list([ingress, ...rest]))
    const newer = app(1, ['/', '/v2'])[0]!
    await s.events('prod', token, [{ type: 'MODIFIED', object: newer }])
    const { answer } = await s.finishAll('prod', token, session, 1)
    expect(answer.done).toBe(true)
    // The answer says so: the page's Ingress was superseded, not applied.
    expect(answer.resync).toEqual({ applied: 0, superseded: 1, deleted: 0, kept: 0 })
    expect(await currentFiles(s.store, 'prod')).toEqual(fullRebuild([newer, ...rest]).files)
  })

  it('a write from elsewhere while a session is open, to an object no page lists (added, changed, deleted and added again), is newer than the list: the finish keeps it and counts it', async () => {
    const s = setup()
    const token = await s.register('prod')
    await s.events('prod', token, apps(range(1, 7)).map(added))
    const listed = apps([1, 2])
    const { session } = await s.begin('prod', token)
    // Written after the begin, as the audit webhook or another forwarder would: app 7 new, app 3's Ingress changed, app 4's made again.
    const changed = app(3, ['/', '/v2'])[0]!
    const [again] = app(4)
    const remade = { ...again!, metadata: { ...(again!.metadata as object), resourceVersion: '77' } }
    await s.events('prod', token, [...app(7).map(added), modified(changed), deleted(again), added(remade)])
    const pages = pagesOf(listed, SMALL.pageItems)
    for (const [n, items] of pages.entries()) await parsed(resyncPageAnswer, await s.page('prod', token, session, n, list(items)), 200)
    const { answer } = await s.finishAll('prod', token, session, pages.length)
    // Apps 5 and 6, and the Services and endpoints of apps 3 and 4, are as the session began: stale, deleted.
    expect(answer.resync).toEqual({ applied: 0, superseded: 0, deleted: apps([5, 6]).length + 4, kept: app(7).length + 2 })
    expect(await currentFiles(s.store, 'prod')).toEqual(fullRebuild([...listed, ...app(7), changed, remade]).files)
  })

  it('a session begun before its begin was recorded finishes as then: it deletes every stored object no page lists, written since or not', async () => {
    const s = setup()
    const token = await s.register('prod')
    await s.events('prod', token, apps([1, 2]).map(added))
    const { session } = await s.begin('prod', token)
    // The record as a function before this one stored it: no begin.
    const key = clusterKeys('prod').resyncRecord(session)
    const { begin: _, ...before } = parseSession((await s.store.get(key))!.body)!
    await s.store.put(key, sessionText(before))
    await s.events('prod', token, app(7).map(added))
    await s.page('prod', token, session, 0, list(app(1)))
    const { answer } = await s.finishAll('prod', token, session, 1)
    expect(answer.resync).toEqual({ applied: 0, superseded: 0, deleted: apps([2, 7]).length, kept: 0 })
    expect(await currentFiles(s.store, 'prod')).toEqual(fullRebuild(app(1)).files)
  })

  it('the garbage collection keeps the state a live session began at, which its finish compares with, and not once the session is finished or expired', async () => {
    // Ahead of the store's own clock, so that a grace of 0 finds every object old.
    const clock = instantClock(Date.now() + 10 * 60_000)
    const s = setup({ clock })
    const token = await s.register('prod')
    await s.events('prod', token, apps(range(1, 7)).map(added))
    const keys = clusterKeys('prod')
    const collect = () => collectGarbage(s.store, 'prod', coldContext(), { keep: 1, graceMs: 0, clock })
    /** Every node of the state `session` began at, loaded: rejects with CorruptObject once one was collected. */
    const beginNodes = async (session: string) => {
      const begin = parseSession((await s.store.get(keys.resyncRecord(session)))!.body)!.begin!
      const context = coldContext()
      return walkGeneration(begin, new NodeLoader(s.store, keys, context), context, { leaves: true })
    }
    const touch = (ns: readonly number[], path: string) =>
      s.events(
        'prod',
        token,
        ns.map((n) => modified(app(n, ['/', path])[0])),
      )

    const { session } = await s.begin('prod', token)
    // Every unlisted Ingress changed after the begin: the state it began at is neither HEAD's nor retained (keep 1).
    await touch(range(3, 7), '/v2')
    expect((await collect())!.deleted.length).toBeGreaterThan(0)
    expect((await beginNodes(session)).size).toBeGreaterThan(0)
    const listed = apps([1, 2])
    const pages = pagesOf(listed, SMALL.pageItems)
    for (const [n, items] of pages.entries()) await parsed(resyncPageAnswer, await s.page('prod', token, session, n, list(items)), 200)
    const { answer } = await s.finishAll('prod', token, session, pages.length)
    expect(answer.resync).toEqual({ applied: 0, superseded: 0, deleted: 8, kept: 4 })
    expect(await currentFiles(s.store, 'prod')).toEqual(fullRebuild([...listed, ...range(3, 7).map((n) => app(n, ['/', '/v2'])[0])]).files)

    const expiring = (await s.begin('prod', token)).session
    await touch(range(3, 7), '/v3')
    await collect()
    expect((await beginNodes(expiring)).size).toBeGreaterThan(0)
    s.clock.advance(SMALL.ttlMs)
    await collect()
    await expect(beginNodes(expiring)).rejects.toThrow(CorruptObject)
    await expect(beginNodes(session)).rejects.toThrow(CorruptObject)
  })

  it('a resync into an empty cluster keeps at most REASONS_KEPT reasons in its record and answer, not one per new backend', async () => {
    const s = setup({ budget: { ...SMALL, pageItems: 60, finishItems: 60, commitItems: 60 } })
    const token = await s.register('prod')
    const listed = apps(range(1, REASONS_KEPT + 11))
    const pages = pagesOf(listed, 60)
    const { session } = await s.begin('prod', token)
    for (const [n, items] of pages.entries()) await s.page('prod', token, session, n, list(items))
    const { answer } = await s.finishAll('prod', token, session, pages.length)
    expect(answer.reasons).toHaveLength(REASONS_KEPT)
    const record = await s.store.get(clusterKeys('prod').resyncRecord(session))
    expect(record!.body.byteLength).toBeLessThan(20_000)
  })

  it('a finish request starts no commit once its finishMs has passed: it answers 202 after its first, and the next goes on to the same end', async () => {
    const clock = instantClock()
    const budget = { ...SMALL, pageItems: 60, finishItems: 60, commitItems: 3, finishMs: 1_000 }
    // Every commit moves HEAD once: each takes finishMs of the clock.
    const memory = createMemoryStore()
    const store: ObjectStore = {
      ...memory,
      put: (key, body, condition) => {
        if (key === clusterKeys('prod').head) clock.advance(budget.finishMs)
        return memory.put(key, body, condition)
      },
    }
    const s = setup({ store, budget, clock })
    const token = await s.register('prod')
    const listed = apps(range(1, 4))
    const pages = pagesOf(listed, budget.pageItems)
    const { session } = await s.begin('prod', token)
    for (const [n, items] of pages.entries()) await s.page('prod', token, session, n, list(items))
    const first = await parsed(resyncProgressAnswer, await s.finish('prod', token, session, { pages: pages.length }), 202)
    expect(first.progress).toMatchObject({ phase: 'apply', applied: budget.commitItems })
    const { answer, partial } = await s.finishAll('prod', token, session, pages.length)
    expect(partial).toBeGreaterThan(0)
    expect(answer).toMatchObject({ done: true, committed: true })
    expect(await currentFiles(s.store, 'prod')).toEqual(fullRebuild(listed).files)
  })

  it('a finish request starts no commit once it has made finishOperations storage operations: 202 after its first, and the next goes on to the same end', async () => {
    const listed = apps(range(1, 4))
    const firstFinish = async (finishOperations: number) => {
      const budget = { ...SMALL, pageItems: 60, finishItems: 60, commitItems: 3, finishMs: 60_000, finishOperations }
      const s = setup({ budget })
      const token = await s.register('prod')
      const pages = pagesOf(listed, budget.pageItems)
      const { session } = await s.begin('prod', token)
      for (const [n, items] of pages.entries()) await s.page('prod', token, session, n, list(items))
      const first = await s.finish('prod', token, session, { pages: pages.length })
      const applied = first.status === 202 ? (await parsed(resyncProgressAnswer, first, 202)).progress.applied : listed.length
      const { answer } = first.status === 202 ? await s.finishAll('prod', token, session, pages.length) : { answer: await first.json() }
      expect(answer).toMatchObject({ done: true, committed: true })
      expect(await currentFiles(s.store, 'prod')).toEqual(fullRebuild(listed).files)
      return applied
    }
    // One commit of 3 items makes more than 10 operations: the request stops after it.
    expect(await firstFinish(10)).toBe(3)
    expect(await firstFinish(Number.POSITIVE_INFINITY)).toBeGreaterThan(3)
  })

  it('a page staging a TLS Secret stores no byte of its key in the clear when the deployment seals', async () => {
    const shop = fixtureCertificate('shop.example.com')
    const secret = toTlsSecret({ namespace: 'default', name: 'shop-tls', ...shop })
    const keyBase64 = secret.data['tls.key']
    const stagedKeyText = async (secrets?: { current: string }) => {
      const store = createMemoryStore()
      const h = harness({ store, limits: { resync: SMALL }, ...(secrets ? { secrets } : {}) })
      const token = await h.register('prod')
      const { session } = (await (await h.call('POST', '/v1/clusters/prod/resync', token)).json()) as { session: string }
      expect((await h.call('PUT', `/v1/clusters/prod/resync/${session}/pages/0`, token, list([secret]))).status).toBe(200)
      const found: string[] = []
      for (const key of await resyncKeys(store, 'prod')) if (new TextDecoder().decode((await store.get(key))!.body).includes(keyBase64)) found.push(key)
      return found
    }
    expect(await stagedKeyText()).not.toEqual([])
    expect(await stagedKeyText({ current: 'deployment-secret-for-the-resync-session-tests-0123' })).toEqual([])
  })

  it('bad input is a 400 that says what and where, and changes nothing', async () => {
    const s = setup()
    const token = await s.register('prod')
    const { session } = await s.begin('prod', token)
    const error = async (answer: Response) => (await parsed(errorBody, answer, 400)).error
    expect(await error(await s.page('prod', token, session, 'first', list([])))).toMatchObject({ path: 'page' })
    expect(await error(await s.page('prod', token, 'not-a-session', 0, list([])))).toMatchObject({ path: 'session' })
    expect(await error(await s.page('prod', token, session, 0, list(apps(range(1, 3)))))).toMatchObject({
      path: 'items',
      message: expect.stringContaining(`at most ${SMALL.pageItems}`),
    })
    expect(await error(await s.page('prod', token, session, 0, { kind: 'List', items: [] }))).toMatchObject({ path: 'apiVersion' })
    expect(await error(await s.finish('prod', token, session, { pages: -1 }))).toMatchObject({ path: 'pages' })
    expect(await error(await s.finish('prod', token, session, { pages: 1, extra: true }))).toMatchObject({ path: '' })
    expect(await resyncKeys(s.store, 'prod')).toEqual([clusterKeys('prod').resyncRecord(session)])
    // Another cluster's token cannot reach the session.
    const other = await s.register('other')
    expect((await s.page('prod', other, session, 0, list([]))).status).toBe(403)
  })
})
