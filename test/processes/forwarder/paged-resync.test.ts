import { describe, expect, it } from 'vitest'
import { clusterKeys } from '../../../core/keys/cluster-keys.ts'
import { readGeneration } from '../../../core/reading/read-generation.ts'
import { readHead } from '../../../core/reading/read-head.ts'
import { fullRebuild } from '../../../core/render/full-rebuild.ts'
import { DEFAULT_RESYNC_BUDGET } from '../../../core/resync/budget.ts'
import { Delivery } from '../../../processes/forwarder/delivery.ts'
import { DEFAULT_PAGED_RESYNC } from '../../../processes/forwarder/paged-resync.ts'
import { FunctionClient, type WriteResult } from '../../../processes/forwarder/function-client.ts'
import { app, coldContext, instantClock } from '../../support/contracts/cluster-apps.ts'
import { harness } from '../../functions/app/app-harness.ts'

const SERVER_PAGE_ITEMS = 4

/**
 * A Delivery whose FunctionClient speaks to the real app (a memory store, small resync budgets),
 * through `intercept`, which sees every request and may answer in the app's place.
 */
async function forwarderTo(
  objects: readonly object[],
  intercept: (method: string, path: string, clock: ReturnType<typeof instantClock>) => Response | undefined = () => undefined,
  wholeListItems = 0,
) {
  const clock = instantClock()
  const budget = { ...DEFAULT_RESYNC_BUDGET, pageItems: SERVER_PAGE_ITEMS, finishItems: 4, scanEntries: 6, rangeKeys: 4, wholeListItems }
  const h = harness({ clock, limits: { resync: budget } })
  const token = await h.register('prod')
  const requests: { method: string; path: string; body?: { items?: { kind: string; metadata: { namespace?: string; name: string } }[] } }[] = []
  const fetcher = (async (url: string, init: RequestInit) => {
    const path = new URL(url).pathname
    requests.push({ method: init.method!, path, ...(init.body ? { body: JSON.parse(String(init.body)) } : {}) })
    return intercept(init.method!, path, clock) ?? h.app.request(url, init)
  }) as typeof fetch
  const log: string[] = []
  const answers: WriteResult[] = []
  const delivery = new Delivery(new FunctionClient({ source: 'http://function.test', cluster: 'prod', token }, fetcher), {
    maxEvents: 100,
    maxBytes: 1 << 20,
    delayMs: 1,
    backoff: { baseMs: 1, maxMs: 5 },
    resyncPageItems: 6,
    snapshot: () => ({ items: [...objects] }),
    log: (line) => log.push(line),
    onCommitted: (result) => void answers.push(result),
  })
  const files = async () => readGeneration(h.store, 'prod', (await readHead(h.store, clusterKeys('prod')))!.head.manifest, coldContext())
  /** The keys of the resync sessions' pages the store still holds. */
  const storedPages = async () => {
    const keys: string[] = []
    for await (const { key } of h.store.list(clusterKeys('prod').resyncSessions)) if (key.includes('/pages/')) keys.push(key)
    return keys
  }
  return { delivery, requests, log, answers, files, clock, storedPages }
}

const objects = Array.from({ length: 10 }, (_, n) => app(n + 1)).flat()
const keyOf = (item: { kind: string; metadata: { namespace?: string; name: string } }) =>
  [item.kind, item.metadata.namespace, item.metadata.name].filter(Boolean).join('/')
const pageNumber = (path: string) => /\/pages\/(\d+)$/.exec(path)?.[1]

describe('the forwarder sends a large resync as a resync session', () => {
  it('begin, pages cut from the list sorted by key at the size the function answers, finish until done: the function holds the list', async () => {
    const f = await forwarderTo([...objects].reverse())
    f.delivery.resync()
    await f.delivery.drain(10_000)
    expect(f.requests.filter((request) => request.path.endsWith('/objects'))).toEqual([])
    const pages = f.requests.filter((request) => pageNumber(request.path) !== undefined)
    expect(pages).toHaveLength(Math.ceil(objects.length / SERVER_PAGE_ITEMS))
    const keys = [...pages].sort((a, b) => Number(pageNumber(a.path)) - Number(pageNumber(b.path))).flatMap((page) => page.body!.items!.map(keyOf))
    expect(keys).toEqual([...keys].sort())
    expect(pages.every((page) => page.body!.items!.length <= SERVER_PAGE_ITEMS)).toBe(true)
    expect(f.requests.filter((request) => request.path.endsWith('/finish')).length).toBeGreaterThan(1)
    expect(f.log.filter((line) => line.startsWith('resync of'))).toEqual([
      expect.stringMatching(
        new RegExp(
          `^resync of ${objects.length} objects in \\d+ pages, finished in \\d+ calls: ${objects.length} applied, 0 superseded by newer writes, 0 deleted, 0 unlisted kept as newer than the list$`,
        ),
      ),
    ])
    expect(f.answers).toHaveLength(1)
    expect(await f.files()).toEqual(fullRebuild(objects).files)
  })

  it('a page that fails is sent again alone; a session the function let expire begins again', async () => {
    let failed = false
    let finishes = 0
    const f = await forwarderTo(objects, (method, path, clock) => {
      if (method === 'PUT' && pageNumber(path) === '2' && !failed) {
        failed = true
        return new Response(JSON.stringify({ error: { message: 'storage put failed' } }), { status: 503 })
      }
      // The first finish comes after the session's time: 410, and the forwarder begins again.
      if (path.endsWith('/finish') && finishes++ === 0) clock.advance(DEFAULT_RESYNC_BUDGET.ttlMs)
      return undefined
    })
    f.delivery.resync()
    await f.delivery.drain(10_000)
    const begins = f.requests.filter((request) => request.method === 'POST' && request.path.endsWith('/resync'))
    expect(begins).toHaveLength(2)
    const firstSession = f.requests.slice(0, f.requests.indexOf(begins[1]!))
    expect(firstSession.filter((request) => pageNumber(request.path) === '2')).toHaveLength(2)
    expect(firstSession.filter((request) => pageNumber(request.path) === '1')).toHaveLength(1)
    expect(f.log.some((line) => /410 resync session .* expired .*; beginning the resync session again/.test(line))).toBe(true)
    expect(await f.files()).toEqual(fullRebuild(objects).files)
  })

  it('a resync interrupted for longer than its calls are tried resumes its session: no second session, no page sent again', async () => {
    const outage = DEFAULT_PAGED_RESYNC.tries + 2
    const failures = new Map<string, number>()
    const unavailable = () => new Response(JSON.stringify({ error: { message: 'storage down' } }), { status: 503 })
    const f = await forwarderTo(objects, (_method, path) => {
      // Page 1, then the finish, each out of reach for more tries than one call makes.
      const call = pageNumber(path) === '1' ? 'page 1' : path.endsWith('/finish') ? 'finish' : undefined
      if (!call) return undefined
      const failed = failures.get(call) ?? 0
      failures.set(call, failed + 1)
      return failed < outage ? unavailable() : undefined
    })
    f.delivery.resync()
    await f.delivery.drain(10_000)
    expect(f.requests.filter((request) => request.method === 'POST' && request.path.endsWith('/resync'))).toHaveLength(1)
    const sends = f.requests.filter((request) => pageNumber(request.path) !== undefined).map((request) => pageNumber(request.path))
    const pages = Math.ceil(objects.length / SERVER_PAGE_ITEMS)
    expect(sends.filter((page) => page !== '1').sort()).toEqual(
      Array.from({ length: pages }, (_, n) => String(n))
        .filter((page) => page !== '1')
        .sort(),
    )
    expect(sends.filter((page) => page === '1')).toHaveLength(outage + 1)
    expect(f.log.filter((line) => /^resuming resync session [0-9a-f-]+: \d+ of \d+ pages sent$/.test(line))).toHaveLength(2)
    expect(f.answers).toHaveLength(1)
    expect(await f.files()).toEqual(fullRebuild(objects).files)
  })

  it('a resync the function refuses for good deletes its session: its pages do not wait in the store for it to expire', async () => {
    const f = await forwarderTo(objects, (_method, path) =>
      pageNumber(path) === '2' ? new Response(JSON.stringify({ error: { message: 'items[0]: must be a Kubernetes object' } }), { status: 400 }) : undefined,
    )
    f.delivery.resync()
    await f.delivery.drain(10_000)
    const session = f.requests.find((request) => pageNumber(request.path) !== undefined)!.path.split('/')[5]
    expect(f.log).toContain(`resync session ${session} abandoned`)
    expect(f.requests.filter((request) => request.method === 'DELETE').map((request) => request.path)).toEqual([`/v1/clusters/prod/resync/${session}`])
    expect(f.requests.some((request) => request.path.endsWith('/finish'))).toBe(false)
    expect(await f.storedPages()).toEqual([])
  })

  it('a forwarder stopped in the middle of a paged resync deletes its session: a restarted one begins its own', async () => {
    const f = await forwarderTo(objects, (_method, path) =>
      path.endsWith('/finish') ? new Response(JSON.stringify({ error: { message: 'storage down' } }), { status: 503 }) : undefined,
    )
    f.delivery.resync()
    while (!f.requests.some((request) => request.path.endsWith('/finish'))) await new Promise((resolve) => setTimeout(resolve, 5))
    expect((await f.storedPages()).length).toBeGreaterThan(0)
    await f.delivery.drain(50)
    const session = f.requests.find((request) => pageNumber(request.path) !== undefined)!.path.split('/')[5]
    expect(f.log).toContain(`resync session ${session} abandoned`)
    expect(await f.storedPages()).toEqual([])
    expect(f.answers).toEqual([])
  })

  it('a list of at most resyncPageItems objects goes as one PUT …/objects', async () => {
    const small = app(1).concat(app(2))
    const f = await forwarderTo(small)
    f.delivery.resync()
    await f.delivery.drain(10_000)
    expect(f.requests.map((request) => `${request.method} ${request.path}`)).toEqual(['PUT /v1/clusters/prod/objects'])
    expect(await f.files()).toEqual(fullRebuild(small).files)
  })

  it('a larger list the function says it takes whole, told its size as the session begins, goes as one PUT …/objects; one item more, in pages', async () => {
    const f = await forwarderTo(objects, undefined, objects.length)
    f.delivery.resync()
    await f.delivery.drain(10_000)
    expect(f.requests.map((request) => `${request.method} ${request.path}`)).toEqual(['POST /v1/clusters/prod/resync', 'PUT /v1/clusters/prod/objects'])
    const told = f.requests[0]!.body as unknown as { items: number; bytes: number }
    expect(told.items).toBe(objects.length)
    expect(told.bytes).toBe(objects.reduce((sum, item) => sum + JSON.stringify(item).length + 1, 0))
    expect(f.log).toContain(`resync of ${objects.length} objects in one request: the function takes up to ${objects.length} objects whole`)
    expect(f.answers).toHaveLength(1)
    expect(await f.files()).toEqual(fullRebuild(objects).files)

    const paged = await forwarderTo(objects, undefined, objects.length - 1)
    paged.delivery.resync()
    await paged.delivery.drain(10_000)
    expect(paged.requests.filter((request) => request.path.endsWith('/objects'))).toEqual([])
    expect(paged.requests.filter((request) => pageNumber(request.path) !== undefined)).toHaveLength(Math.ceil(objects.length / SERVER_PAGE_ITEMS))
    expect(await paged.files()).toEqual(fullRebuild(objects).files)
  })
})
