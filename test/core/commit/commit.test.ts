import { describe, expect, it } from 'vitest'
import { commitEvents, type CommitContext } from '../../../core/commit/commit-events.ts'
import { clusterKeys } from '../../../core/keys/cluster-keys.ts'
import { CommitContention } from '../../../core/commit/errors.ts'
import { CorruptObject } from '../../../core/reading/errors.ts'
import { readGeneration } from '../../../core/reading/read-generation.ts'
import { readHead } from '../../../core/reading/read-head.ts'
import { fullRebuild } from '../../../core/render/full-rebuild.ts'
import { StorageError, type ObjectStore } from '../../../core/ports/object-store.ts'
import { createMemoryStore } from '../../../functions/adapters/storage/memory-store.ts'
import { faultyStore } from '../../support/store-faults.ts'
import { added, app, coldContext, deleted, instantClock, modified } from '../../support/contracts/cluster-apps.ts'

const context = (store: ObjectStore, overrides: Partial<CommitContext> = {}): CommitContext => ({
  store,
  cluster: 'prod-eu',
  options: {},
  context: coldContext(),
  clock: instantClock(),
  ...overrides,
})

const filesOf = async (store: ObjectStore, cluster = 'prod-eu') => {
  const current = await readHead(store, clusterKeys(cluster))
  return readGeneration(store, cluster, current!.head.manifest, coldContext())
}

describe('committing events to object storage', () => {
  it('makes generation after generation, each naming its parent, and commits nothing for a change that changes nothing', async () => {
    const store = createMemoryStore()
    const first = await commitEvents(context(store), app(1).map(added))
    expect(first).toMatchObject({ committed: true, head: { generation: 1, parent: null } })
    const second = await commitEvents(context(store), app(2).map(added))
    expect(second.head).toMatchObject({ generation: 2, parent: first.head!.manifest })
    const again = await commitEvents(context(store), app(2).map(modified))
    expect(again).toMatchObject({ committed: false, written: { nodes: 0, blobs: 0 } })
    expect((await readHead(store, clusterKeys('prod-eu')))!.head).toEqual(second.head)
  })

  it('commits files equal to a full rebuild of the same objects, read back and verified by a cold reader', async () => {
    const store = createMemoryStore()
    const objects = [...app(1), ...app(2, ['/', '/api']), ...app(3)]
    for (const object of objects) await commitEvents(context(store), [added(object)])
    await commitEvents(context(store), [deleted(objects[6])])
    expect(await filesOf(store)).toEqual(fullRebuild(objects.slice(0, 6).concat(objects.slice(7))).files)
  })

  it('loads from storage a number of nodes per one-Ingress event that grows with the depth of the trees, not the cluster', async () => {
    const loaded: Record<number, number> = {}
    for (const size of [20, 400]) {
      const store = createMemoryStore()
      await commitEvents(
        context(store),
        Array.from({ length: size }, (_, n) => app(n))
          .flat()
          .map(added),
      )
      const cold = await commitEvents(context(store), [modified(app(7, ['/', '/v2'])[0])])
      loaded[size] = cold.loaded.nodes
      // The paths to the keys the event names load together, a tree level per round trip.
      expect(cold.loaded.rounds).toBeLessThan(cold.loaded.nodes / 2)
    }
    // 20× the objects: the trees are one or two levels deeper, so a few more nodes, not 20× as many.
    expect(loaded[400]).toBeLessThan(loaded[20]! * 3)
  })

  it('derives a cluster again under new options from a cold process in a round trip per tree level, equal to a full rebuild under them', async () => {
    const store = createMemoryStore()
    const objects = Array.from({ length: 400 }, (_, n) => app(n)).flat()
    await commitEvents(context(store), objects.map(added))
    const options = { httpBind: '127.0.0.1:8080', ingressClass: 'hapedge' }
    const changed = await commitEvents(context(store, { options }), [])
    expect(changed.committed).toBe(true)
    expect(await filesOf(store)).toEqual(fullRebuild(objects, options).files)
    // The whole snapshot and generation, loaded level by level: a scan node by node would take a round per node.
    expect(changed.loaded.nodes).toBeGreaterThan(100)
    expect(changed.loaded.rounds).toBeLessThan(15)
  })

  it('retries when HEAD moved under it, and gives up with a retryable error when it keeps moving', async () => {
    const store = createMemoryStore()
    await commitEvents(context(store), app(1).map(added))
    let raced = 0
    const racing: ObjectStore = {
      ...store,
      async put(key, body, condition) {
        // Another writer commits just before this one's compare-and-swap, `raced` times.
        if (key.endsWith('/HEAD') && raced-- > 0) await commitEvents(context(store), [added(app(100 + raced)[0])])
        return store.put(key, body, condition)
      },
    }
    raced = 2
    const won = await commitEvents(context(racing), app(2).map(added))
    expect(won).toMatchObject({ committed: true, attempts: 3, head: { generation: 4 } })
    raced = 100
    await expect(commitEvents(context(racing, { attempts: 3 }), app(3).map(added))).rejects.toBeInstanceOf(CommitContention)
  })

  it('leaves the last generation whole and readable when storage fails or times out mid-commit', async () => {
    const store = createMemoryStore()
    await commitEvents(context(store), app(1).map(added))
    const before = await filesOf(store)
    const headBefore = await readHead(store, clusterKeys('prod-eu'))
    let puts = 0
    const failing = faultyStore(store, (operation, key) =>
      operation === 'put' && ++puts === 3 ? new StorageError('put', key, new Error('503 Slow Down')) : undefined,
    )
    await expect(commitEvents(context(failing), app(2).map(added))).rejects.toThrow(/storage put clusters\/prod-eu\/.* failed: 503 Slow Down/)
    const failingHead = faultyStore(store, (operation, key) =>
      operation === 'put' && key.endsWith('/HEAD') ? new StorageError('put', key, new Error('timed out after 5000 ms')) : undefined,
    )
    await expect(commitEvents(context(failingHead), app(2).map(added))).rejects.toThrow(/HEAD failed: timed out/)
    expect(await readHead(store, clusterKeys('prod-eu'))).toEqual(headBefore)
    expect(await filesOf(store)).toEqual(before)
    // And the next writer commits from that generation as if nothing had happened.
    await commitEvents(context(store), app(2).map(added))
    expect(await filesOf(store)).toEqual(fullRebuild([...app(1), ...app(2)]).files)
  })

  it('refuses a corrupted blob or node with the key that failed, for readers and writers alike', async () => {
    const store = createMemoryStore()
    await commitEvents(context(store), [...app(1), ...app(2)].map(added))
    const keys = clusterKeys('prod-eu')
    const blobs: string[] = []
    for await (const object of store.list(`${keys.root}blobs/`)) blobs.push(object.key)
    const victim = blobs[0]!
    const original = (await store.get(victim))!.body
    await store.put(victim, 'backend evil\n    server s1 203.0.113.9:80\n')
    await expect(filesOf(store)).rejects.toThrow(new CorruptObject(victim, 'content does not match its sha256'))
    await store.put(victim, original)

    const nodes: string[] = []
    for await (const object of store.list(`${keys.root}nodes/`)) nodes.push(object.key)
    const headBefore = await readHead(store, keys)
    for (const node of nodes) await store.put(node, '["object\\u0001Ingress/default/evil","{}"]\n')
    await expect(commitEvents(context(store), app(3).map(added))).rejects.toBeInstanceOf(CorruptObject)
    expect(await readHead(store, keys)).toEqual(headBefore)
  })

  it("keeps clusters apart: the same events in two clusters never share or reach the other cluster's keys", async () => {
    const store = createMemoryStore()
    await commitEvents(context(store, { cluster: 'a' }), app(1).map(added))
    await commitEvents(context(store, { cluster: 'b' }), app(2).map(added))
    const keys: string[] = []
    for await (const object of store.list('clusters/')) keys.push(object.key)
    expect(keys.every((key) => key.startsWith('clusters/a/') || key.startsWith('clusters/b/'))).toBe(true)
    expect(await filesOf(store, 'a')).toEqual(fullRebuild(app(1)).files)
    expect(() => clusterKeys('../b')).toThrow(/invalid cluster id/)
  })
})
