import { describe, expect, it } from 'vitest'
import { commitEvents, type CommitContext } from '../../../core/commit/commit-events.ts'
import { ingest, TLS_CHECK_SLICE } from '../../../core/ingest/ingest.ts'
import { clusterKeys } from '../../../core/keys/cluster-keys.ts'
import type { ObjectStore } from '../../../core/ports/object-store.ts'
import { SLICE_STEPS } from '../../../core/slices.ts'
import { createMemoryStore } from '../../../functions/adapters/storage/memory-store.ts'
import { added, app, coldContext, instantClock } from '../../support/contracts/cluster-apps.ts'
import { tlsSecret } from '../../support/objects.ts'
import { pairOf } from '../tls/tls-fixtures.ts'

/** A store that logs each write of the cluster's HEAD into `log`, beside what the commit's pauses log. */
function loggingStore(log: string[]): ObjectStore {
  const store = createMemoryStore()
  const head = clusterKeys('prod-eu').head
  return {
    ...store,
    get: (key) => {
      log.push('read')
      return store.get(key)
    },
    put: (key, body, condition) => {
      if (key === head) log.push('head moved')
      return store.put(key, body, condition)
    },
  }
}

const context = (store: ObjectStore, log?: string[]): CommitContext => ({
  store,
  cluster: 'prod-eu',
  options: {},
  context: coldContext(),
  clock: instantClock(),
  ...(log ? { pause: async () => void log.push('pause') } : {}),
})

describe('a long commit', () => {
  it('pauses between slices of its computation, before HEAD moves, and commits what it would have committed at once', async () => {
    const events = Array.from({ length: SLICE_STEPS }, (_, n) => app(n))
      .flat()
      .map(added)
    const log: string[] = []
    const sliced = await commitEvents(context(loggingStore(log), log), events)
    const atOnce = await commitEvents(context(createMemoryStore(), undefined), events)
    // Each event is a step: at least one pause per SLICE_STEPS of them, all before the commit's CAS on HEAD.
    expect(log.filter((entry) => entry === 'pause').length).toBeGreaterThanOrEqual(events.length / SLICE_STEPS)
    expect(log.lastIndexOf('pause')).toBeLessThan(log.indexOf('head moved'))
    expect(sliced.head).toMatchObject({ generation: 1, snapshot: atOnce.head!.snapshot, manifest: atOnce.head!.manifest })
  })

  it('checks a request’s TLS Secrets a slice at a time, pausing between slices before its first read', async () => {
    const { certPem, keyPem } = pairOf('shop.example.com')
    const secrets = Array.from({ length: TLS_CHECK_SLICE * 2 + 1 }, (_, n) => tlsSecret(`shop-${n}`, certPem, keyPem))
    const log: string[] = []
    const result = await ingest(context(loggingStore(log), log), secrets.map(added))
    expect(result).toMatchObject({ committed: true, rejected: [] })
    // Three slices, two pauses between them, then the commit reads HEAD.
    expect(log.slice(0, 3)).toEqual(['pause', 'pause', 'read'])
  })
})
