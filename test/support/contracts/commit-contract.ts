import { describe, expect, it } from 'vitest'
import { clusterKeys } from '../../../core/keys/cluster-keys.ts'
import { collectGarbage } from '../../../core/garbage/collect-garbage.ts'
import { commitEvents, type Committed } from '../../../core/commit/commit-events.ts'
import { CommitContention } from '../../../core/commit/errors.ts'
import { generationRecord } from '../../../core/reading/head.ts'
import { readGeneration } from '../../../core/reading/read-generation.ts'
import { readHead } from '../../../core/reading/read-head.ts'
import { fullRebuild } from '../../../core/render/full-rebuild.ts'
import type { WatchEvent } from '../../../core/incremental/watch-event.ts'
import type { ObjectStore } from '../../../core/ports/object-store.ts'
import { ingress } from '../objects.ts'
import { app, coldContext, instantClock } from './cluster-apps.ts'
import { beginSession } from '../../../core/resync/begin.ts'
import { newSession } from '../../../core/resync/session.ts'
import { CorruptObject } from '../../../core/reading/errors.ts'
import { NodeLoader } from '../../../core/reading/node-loader.ts'
import { walkGeneration } from '../../../core/reading/walk-generation.ts'

const SLOW = 120_000
const put = (object: unknown): WatchEvent => ({ type: 'MODIFIED', object: object as Record<string, unknown> })

/** Commits like a client that honours 503 Retry-After: contention is retried until the events land. */
async function commitUntilDone(store: ObjectStore, cluster: string, events: WatchEvent[]): Promise<Committed> {
  for (;;) {
    try {
      return await commitEvents({ store, cluster, options: {}, context: coldContext() }, events)
    } catch (error) {
      if (!(error instanceof CommitContention)) throw error
    }
  }
}

async function records(store: ObjectStore, cluster: string) {
  const keys = clusterKeys(cluster)
  const found = []
  for await (const object of store.list(keys.generations)) {
    const stored = await store.get(object.key)
    found.push(generationRecord.parse(JSON.parse(new TextDecoder().decode(stored!.body))))
  }
  return found
}

async function currentFiles(store: ObjectStore, cluster: string) {
  const head = await readHead(store, clusterKeys(cluster))
  return readGeneration(store, cluster, head!.head.manifest, coldContext())
}

/**
 * The commit protocol over one ObjectStore: concurrent writers lose nothing, and garbage
 * collection never takes what a retained generation references. Imports only vitest and
 * project files, so it runs in Node and inside workerd alike.
 */
export function commitProtocolContract(name: string, setup: () => Promise<{ store: ObjectStore; cleanup?(): Promise<void> }>): void {
  describe(`commit protocol: ${name}`, () => {
    let clusters = 0
    const newCluster = () => `c${++clusters}-${Date.now().toString(36)}`

    it(
      'several writers at once: the final generation equals a full rebuild of every event, and generations run 1..N without gaps or repeats',
      async () => {
        const { store, cleanup } = await setup()
        const cluster = newCluster()
        const writers = 4
        const perWriter = 6
        const objectsOf = (w: number) => Array.from({ length: perWriter }, (_, i) => app(w * perWriter + i)).flat()
        const results = await Promise.all(
          Array.from({ length: writers }, async (_, w) => {
            const mine: Committed[] = []
            for (const object of objectsOf(w)) mine.push(await commitUntilDone(store, cluster, [put(object)]))
            return mine
          }),
        )
        const committed = results.flat().filter((result) => result.committed)
        const generations = committed.map((result) => result.head!.generation).sort((a, b) => a - b)
        expect(generations).toEqual(Array.from({ length: generations.length }, (_, i) => i + 1))
        const history = await records(store, cluster)
        expect(history.map((record) => record.generation)).toEqual(generations)
        history.forEach((record, i) => expect(record.parent).toBe(i === 0 ? null : history[i - 1]!.manifest))
        const all = Array.from({ length: writers }, (_, w) => objectsOf(w)).flat()
        expect(await currentFiles(store, cluster)).toEqual(fullRebuild(all).files)
        await cleanup?.()
      },
      SLOW,
    )

    it(
      'garbage collection across A → B → A keeps every object a retained generation references',
      async () => {
        const { store, cleanup } = await setup()
        const cluster = newCluster()
        const variant = (path: string) => [ingress({ name: 'shop', rules: [{ host: 'shop.example.com', paths: [{ path, service: 'web' }] }] }), ...app(1)]
        await commitUntilDone(store, cluster, variant('/a').map(put))
        const a = await currentFiles(store, cluster)
        await commitUntilDone(store, cluster, variant('/b').map(put))
        const first = await collectGarbage(store, cluster, coldContext(), { keep: 1, graceMs: 0 })
        expect(first!.deleted.length).toBeGreaterThan(0)
        await commitUntilDone(store, cluster, variant('/a').map(put))
        expect(await currentFiles(store, cluster)).toEqual(a)
        const second = await collectGarbage(store, cluster, coldContext(), { keep: 2, graceMs: 0 })
        expect(second).toMatchObject({ complete: true, retained: [3, 2] })
        expect(await currentFiles(store, cluster)).toEqual(a)
        for (const record of await records(store, cluster))
          await expect(readGeneration(store, cluster, record.manifest, coldContext())).resolves.toBeInstanceOf(Map)
        await cleanup?.()
      },
      SLOW,
    )

    it(
      'garbage collection keeps the state a live resync session began at, and not once the session expired',
      async () => {
        const { store, cleanup } = await setup()
        const cluster = newCluster()
        const keys = clusterKeys(cluster)
        const variant = (path: string) => [ingress({ name: 'shop', rules: [{ host: 'shop.example.com', paths: [{ path, service: 'web' }] }] }), ...app(1)]
        await commitUntilDone(store, cluster, variant('/a').map(put))
        const { begin } = await beginSession(store, keys, cluster, newSession(crypto.randomUUID(), new Date(), 3_600_000, 10))
        await commitUntilDone(store, cluster, variant('/b').map(put))
        const beginNodes = (context = coldContext()) => walkGeneration(begin!, new NodeLoader(store, keys, context), context, { leaves: true })
        const live = await collectGarbage(store, cluster, coldContext(), { keep: 1, graceMs: 0 })
        expect(live!.deleted.length).toBeGreaterThan(0)
        await expect(beginNodes()).resolves.toBeInstanceOf(Set)
        const later = instantClock(Date.now() + 2 * 3_600_000)
        await collectGarbage(store, cluster, coldContext(), { keep: 1, graceMs: 0, clock: later })
        await expect(beginNodes()).rejects.toThrow(CorruptObject)
        await cleanup?.()
      },
      SLOW,
    )

    it(
      'garbage collection running beside writers never takes what the committed generation needs',
      async () => {
        const { store, cleanup } = await setup()
        const cluster = newCluster()
        await commitUntilDone(store, cluster, app(0).map(put))
        let writing = true
        const collector = (async () => {
          let runs = 0
          while (writing || runs === 0) {
            await collectGarbage(store, cluster, coldContext(), { keep: 1, graceMs: 0, leaseMs: 5_000 })
            runs++
            // Let the writers' timers run between collections, as separate processes would.
            await new Promise((resolve) => setTimeout(resolve, 25))
          }
          return runs
        })()
        const objects = Array.from({ length: 12 }, (_, n) => app(n % 4, n % 2 ? ['/', `/v${n}`] : ['/'])).flat()
        for (const object of objects) await commitUntilDone(store, cluster, [put(object)])
        writing = false
        expect(await collector).toBeGreaterThan(0)
        const live = new Map<string, unknown>()
        for (const object of [...app(0), ...objects])
          live.set(JSON.stringify([(object as { kind: string }).kind, (object as { metadata: { name: string } }).metadata.name]), object)
        expect(await currentFiles(store, cluster)).toEqual(fullRebuild([...live.values()]).files)
        await cleanup?.()
      },
      SLOW,
    )
  })
}
