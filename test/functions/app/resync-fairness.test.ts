import { describe, expect, it } from 'vitest'
import type { ObjectStore } from '../../../core/ports/object-store.ts'
import { createMemoryStore } from '../../../functions/adapters/storage/memory-store.ts'
import { app } from '../../support/contracts/cluster-apps.ts'
import { ingress } from '../../support/objects.ts'
import { ADMIN, harness } from './app-harness.ts'
import { clusterKeys } from '../../../core/keys/cluster-keys.ts'
import { DEFAULT_RESYNC_BUDGET } from '../../../core/resync/budget.ts'
import { SLICE_STEPS } from '../../../core/slices.ts'

const list = (items: readonly unknown[]) => ({ apiVersion: 'v1', kind: 'List', metadata: {}, items })
/** Enough objects that listing, comparing and computing their commit takes many slices. */
const large = Array.from({ length: 400 }, (_, n) => app(n)).flat()
const quietEvent = (n: number) => [
  { type: 'MODIFIED', object: ingress({ name: 'quiet', rules: [{ host: 'quiet.example.com', paths: [{ path: `/v${n}`, service: 'quiet' }] }] }) },
]

/**
 * The app on a memory store (it answers in microtasks) that logs, into `log`, the first time
 * the large cluster writes what its resync computed (tree nodes, blobs, a staged page): until
 * then the resync is computing, and only a resync that yields lets anything else in.
 */
function loggingApp(log: string[]) {
  const memory = createMemoryStore()
  let wrote = false
  const store: ObjectStore = {
    ...memory,
    put: (key, body, condition) => {
      if (!wrote && /^clusters\/big\/(nodes|blobs|resync\/[^/]+\/pages)\//.test(key)) {
        wrote = true
        log.push('resync wrote')
      }
      return memory.put(key, body, condition)
    },
  }
  return { ...harness({ store }), rearm: () => (wrote = false) }
}

/** Starts one request of the large cluster's resync, and at the first turn of the event loop one event on the quiet cluster. */
async function eventDuring(log: string[], resync: () => Response | Promise<Response>, quiet: () => Response | Promise<Response>): Promise<string[]> {
  log.length = 0
  const resynced = Promise.resolve(resync()).then((answer) => void log.push(`resync ${answer.status}`))
  const answered = new Promise<void>((resolve) =>
    setTimeout(() => {
      void Promise.resolve(quiet()).then((answer) => resolve(void log.push(`event ${answer.status}`)))
    }, 0),
  )
  await Promise.all([resynced, answered])
  return [...log]
}

/** Registers both clusters and commits the quiet one's first event, then runs `eventDuring` with the large one's PUT …/objects. */
async function eventDuringPut(log: string[], { call, register, events }: ReturnType<typeof harness>): Promise<string[]> {
  const bigToken = await register('big')
  const quietToken = await register('quiet')
  expect((await events('quiet', quietToken, quietEvent(0))).status).toBe(200)
  return eventDuring(
    log,
    () => call('PUT', '/v1/clusters/big/objects', bigToken, list(large)),
    () => events('quiet', quietToken, quietEvent(1)),
  )
}

/**
 * The app whose quiet cluster's storage answers some turns of the event loop later, as a disk
 * does (each turn a chance for a slice to run first), logging each of its operations and each
 * turn the resync's slices take (`slice`, logged before it ends).
 */
function slowQuietHarness(log: string[]) {
  const memory = createMemoryStore()
  const quiet = /^(registry\/clusters\/quiet|clusters\/quiet\/)/
  const turns = async (count: number) => {
    for (let turn = 0; turn < count; turn++) await new Promise((resolve) => setImmediate(resolve))
  }
  const later =
    <A extends unknown[], T>(operation: (key: string, ...rest: A) => Promise<T>) =>
    async (key: string, ...rest: A): Promise<T> => {
      if (!quiet.test(key)) return operation(key, ...rest)
      log.push('quiet storage')
      const value = await operation(key, ...rest)
      await turns(4)
      return value
    }
  const store: ObjectStore = { ...memory, get: later(memory.get), head: later(memory.head), put: later(memory.put) }
  const turn = () => (log.push('slice'), new Promise<void>((resolve) => setImmediate(resolve)))
  return harness({ store, yieldTurn: turn })
}

describe('one cluster’s resync on the thread that serves many', () => {
  it('answers another cluster’s event while a PUT …/objects of the large one is still computing', async () => {
    const log: string[] = []
    const order = await eventDuringPut(log, loggingApp(log))
    expect(order).toEqual(['event 200', 'resync wrote', 'resync 200'])
  })

  it('runs no slice of the resync between two steps of another cluster’s event, from reading its record to its answer', async () => {
    const log: string[] = []
    const order = await eventDuringPut(log, slowQuietHarness(log))
    const during = order.slice(order.indexOf('quiet storage'), order.indexOf('event 200'))
    expect(during.filter((entry) => entry === 'quiet storage').length).toBeGreaterThan(3)
    // None; one should the machine stall the test past BACKGROUND_WAIT_MS, when a slice goes on (without the request's hold, one a turn until its commit).
    expect(during.filter((entry) => entry === 'slice').length).toBeLessThanOrEqual(1)
    expect(order.slice(order.indexOf('event 200'))).toContain('slice')
  })

  it('answers another cluster’s event while a page of a resync session is staged', async () => {
    const log: string[] = []
    const { call, register, events } = loggingApp(log)
    const bigToken = await register('big')
    const quietToken = await register('quiet')
    expect((await events('quiet', quietToken, quietEvent(0))).status).toBe(200)
    const { session } = (await (await call('POST', '/v1/clusters/big/resync', bigToken, {})).json()) as { session: string }
    const order = await eventDuring(
      log,
      () => call('PUT', `/v1/clusters/big/resync/${session}/pages/0`, bigToken, list(large.slice(0, 1000))),
      () => events('quiet', quietToken, quietEvent(1)),
    )
    expect(order).toEqual(['event 200', 'resync wrote', 'resync 200'])
  })

  it('answers another cluster’s event while the finish of a resync session computes a commit', async () => {
    const log: string[] = []
    const { call, register, events, rearm } = loggingApp(log)
    const bigToken = await register('big')
    const quietToken = await register('quiet')
    expect((await events('quiet', quietToken, quietEvent(0))).status).toBe(200)
    const { session } = (await (await call('POST', '/v1/clusters/big/resync', bigToken, {})).json()) as { session: string }
    expect((await call('PUT', `/v1/clusters/big/resync/${session}/pages/0`, bigToken, list(large.slice(0, 1000)))).status).toBe(200)
    rearm()
    const order = await eventDuring(
      log,
      () => call('POST', `/v1/clusters/big/resync/${session}/finish`, bigToken, { pages: 1 }),
      () => events('quiet', quietToken, quietEvent(2)),
    )
    expect(order).toEqual(['event 200', 'resync wrote', 'resync 200'])
  })

  it('checks a finish slice’s staged items against the snapshot in slices, before its commit reads HEAD', async () => {
    const log: string[] = []
    const memory = createMemoryStore()
    const head = clusterKeys('big').head
    const store: ObjectStore = { ...memory, get: (key) => (key === head && log.push('HEAD read'), memory.get(key)) }
    const turn = () => (log.push('slice'), new Promise<void>((resolve) => setImmediate(resolve)))
    // A slice of a whole page, as in hapedge serve (server-resync-budget.ts).
    const { call, register } = harness({ store, limits: { resync: { ...DEFAULT_RESYNC_BUDGET, commitItems: 1_000 } }, yieldTurn: turn })
    const token = await register('big')
    const site = (n: number, path: string) => ingress({ name: `site-${n}`, rules: [{ host: `site-${n}.example.com`, paths: [{ path, service: 'web' }] }] })
    const sites = (path: string) => Array.from({ length: 3 * SLICE_STEPS }, (_, n) => site(n, path))
    expect((await call('PUT', '/v1/clusters/big/objects', token, list(sites('/')))).status).toBe(200)
    const { session } = (await (await call('POST', '/v1/clusters/big/resync', token, {})).json()) as { session: string }
    // Every Ingress changed: each is staged, and checked again at the finish.
    expect((await call('PUT', `/v1/clusters/big/resync/${session}/pages/0`, token, list(sites('/v2')))).status).toBe(200)
    log.length = 0
    expect((await call('POST', `/v1/clusters/big/resync/${session}/finish`, token, { pages: 1 })).status).toBe(200)
    // The check opens the snapshot (a read of HEAD), then the commit reads HEAD for its compare-and-swap: the check's slices come between.
    const checking = log.slice(log.indexOf('HEAD read'), log.indexOf('HEAD read', log.indexOf('HEAD read') + 1))
    expect(checking.filter((entry) => entry === 'slice').length).toBeGreaterThanOrEqual(3)
  })

  it('runs slices of the resync while the admin’s fleet view reads, which holds no foreground', async () => {
    const log: string[] = []
    const { call, register, events } = slowQuietHarness(log)
    const bigToken = await register('big')
    expect((await events('quiet', await register('quiet'), quietEvent(0))).status).toBe(200)
    const order = await eventDuring(
      log,
      () => call('PUT', '/v1/clusters/big/objects', bigToken, list(large)),
      () => call('GET', '/v1/fleet', ADMIN),
    )
    // The view's reads of the quiet cluster, and its answer (logged as `event`).
    const during = order.slice(order.indexOf('quiet storage'), order.indexOf('event 200'))
    expect(during.filter((entry) => entry === 'quiet storage').length).toBeGreaterThan(1)
    expect(during.filter((entry) => entry === 'slice').length).toBeGreaterThan(1)
  })
})
