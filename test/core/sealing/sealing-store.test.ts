import { describe, expect, it } from 'vitest'
import { clusterKeys } from '../../../core/keys/cluster-keys.ts'
import { commitEvents } from '../../../core/commit/commit-events.ts'
import { collectGarbage } from '../../../core/garbage/collect-garbage.ts'
import { CorruptObject } from '../../../core/reading/errors.ts'
import { readGeneration } from '../../../core/reading/read-generation.ts'
import { readHead } from '../../../core/reading/read-head.ts'
import { sealAllPlaintext, sealPlaintext } from '../../../core/sealing/seal-plaintext.ts'
import { sealingStore } from '../../../core/sealing/sealing-store.ts'
import { isSealedBody, SEALED_BODY_OVERHEAD } from '../../../core/crypto/sealed-body.ts'
import { fullRebuild } from '../../../core/render/full-rebuild.ts'
import { sha256Text } from '../../../core/hash.ts'
import { nodeText } from '../../../core/tree/node-body.ts'
import type { ObjectStore } from '../../../core/ports/object-store.ts'
import { createMemoryStore } from '../../../functions/adapters/storage/memory-store.ts'
import { added, app, coldContext, instantClock } from '../../support/contracts/cluster-apps.ts'
import { objectStoreContract } from '../../support/contracts/object-store-contract.ts'

const newKey = () => crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt']) as Promise<CryptoKey>

/** Every key of `store` under `prefix`, so the contract's keys land where bodies are sealed. */
function under(prefix: string, store: ObjectStore): ObjectStore {
  return {
    get: (key) => store.get(prefix + key),
    head: (key) => store.head(prefix + key),
    put: (key, body, condition) => store.put(prefix + key, body, condition),
    async *list(at) {
      for await (const object of store.list(prefix + at)) yield { ...object, key: object.key.slice(prefix.length) }
    },
    delete: (keys) => store.delete(keys.map((key) => prefix + key)),
  }
}

objectStoreContract('sealing decorator over memory (every key under clusters/contract/blobs/)', async () => {
  const key = await newKey()
  return {
    store: under(
      'clusters/contract/blobs/',
      sealingStore(createMemoryStore(), async () => key),
    ),
    honoursConditions: true,
    storedSize: (bytes) => bytes + SEALED_BODY_OVERHEAD,
  }
})

/** A raw store, the sealing store over it with one key per cluster, and a commit helper. */
async function sealedSetup() {
  const raw = createMemoryStore()
  const keys = new Map([
    ['prod-eu', await newKey()],
    ['prod-us', await newKey()],
  ])
  const store = sealingStore(raw, async (cluster) => keys.get(cluster))
  const commit = (cluster: string, objects: unknown[], on: ObjectStore = store) =>
    commitEvents({ store: on, cluster, options: {}, context: coldContext(), clock: instantClock() }, objects.map(added))
  const filesOf = async (cluster: string, on: ObjectStore = store) =>
    readGeneration(on, cluster, (await readHead(on, clusterKeys(cluster)))!.head.manifest, coldContext())
  const contentKeys = async (cluster: string) => {
    const found: string[] = []
    for (const space of ['nodes', 'blobs']) for await (const object of raw.list(`clusters/${cluster}/${space}/`)) found.push(object.key)
    return found
  }
  return { raw, store, commit, filesOf, contentKeys }
}

describe('the sealing store', () => {
  it('seals every node and blob body, keeps their plaintext names, and leaves HEAD and generation records as they are', async () => {
    const { raw, store, commit, filesOf, contentKeys } = await sealedSetup()
    await commit('prod-eu', app(1))
    expect(await filesOf('prod-eu')).toEqual(fullRebuild(app(1)).files)
    const keys = await contentKeys('prod-eu')
    expect(keys.length).toBeGreaterThan(3)
    for (const key of keys) {
      const stored = (await raw.get(key))!.body
      expect(isSealedBody(stored), key).toBe(true)
      const opened = (await store.get(key))!
      // Named by its text, which it may store gzipped.
      expect(sha256Text(await nodeText(opened.body)), key).toBe(key.split('/').at(-1))
      expect(opened.size).toBe(stored.length - SEALED_BODY_OVERHEAD)
    }
    for await (const object of raw.list('clusters/prod-eu/')) {
      if (keys.includes(object.key)) continue
      expect(isSealedBody((await raw.get(object.key))!.body), object.key).toBe(false)
    }
  })

  it('reads objects stored in the clear before sealing, and seals what a later commit adds', async () => {
    const { raw, commit, filesOf, contentKeys } = await sealedSetup()
    await commit('prod-eu', app(1), raw)
    const before = await contentKeys('prod-eu')
    await commit('prod-eu', [...app(1), ...app(2)])
    expect(await filesOf('prod-eu')).toEqual(fullRebuild([...app(1), ...app(2)]).files)
    const added = (await contentKeys('prod-eu')).filter((key) => !before.includes(key))
    expect(added.length).toBeGreaterThan(0)
    for (const key of before) expect(isSealedBody((await raw.get(key))!.body), key).toBe(false)
    for (const key of added) expect(isSealedBody((await raw.get(key))!.body), key).toBe(true)
  })

  it('refuses a sealed body with one byte flipped, naming its key, and the reader returns nothing of the generation', async () => {
    const { raw, store, commit, filesOf } = await sealedSetup()
    const { head } = await commit('prod-eu', app(1))
    const victim = clusterKeys('prod-eu').node('blobs', head!.manifest)
    const body = (await raw.get(victim))!.body
    body[body.length - 20]! ^= 0x01
    await raw.put(victim, body)
    await expect(store.get(victim)).rejects.toThrow(CorruptObject)
    await expect(store.get(victim)).rejects.toThrow(`${victim}: the sealed body does not open with the data key of cluster prod-eu: altered`)
    await expect(filesOf('prod-eu')).rejects.toThrow(victim)
    await raw.put(victim, body.subarray(0, 25))
    await expect(store.get(victim)).rejects.toThrow(`${victim}: the sealed body does not open with the data key of cluster prod-eu: truncated`)
  })

  it('does not open a body copied under another cluster’s key, nor under another name in its own cluster', async () => {
    const { raw, store, commit } = await sealedSetup()
    const { head } = await commit('prod-eu', app(1))
    const body = (await raw.get(clusterKeys('prod-eu').node('blobs', head!.manifest)))!.body
    for (const moved of [
      clusterKeys('prod-us').node('blobs', head!.manifest),
      clusterKeys('prod-eu').node('nodes', head!.manifest),
      clusterKeys('prod-eu').node('blobs', '0'.repeat(64)),
    ]) {
      await raw.put(moved, body)
      await expect(store.get(moved)).rejects.toThrow(new RegExp(`^${moved}: the sealed body does not open`))
    }
  })

  it('says so when a sealed body meets a deployment without its key, and never writes in the clear when the key cannot be had', async () => {
    const { raw, commit } = await sealedSetup()
    const { head } = await commit('prod-eu', app(1))
    const key = clusterKeys('prod-eu').node('blobs', head!.manifest)
    await expect(sealingStore(raw, async () => undefined).get(key)).rejects.toThrow(
      /sealed, but this deployment has no data key for cluster prod-eu: configure the deployment secret/,
    )
    const failing = sealingStore(raw, async () => {
      throw new Error('cannot unwrap the cluster key: AES-KW refused it')
    })
    await expect(failing.get(key)).rejects.toThrow(`${key}: sealed, and the data key of cluster prod-eu is unavailable: cannot unwrap`)
    await expect(failing.put('clusters/prod-eu/blobs/new', 'the private key')).rejects.toThrow(/not written/)
    expect(await raw.head('clusters/prod-eu/blobs/new')).toBeUndefined()
  })

  it('lets garbage collection mark through it; over the raw store, collection refuses a sealed node and deletes nothing', async () => {
    const { raw, store, commit, filesOf, contentKeys } = await sealedSetup()
    for (const paths of [['/'], ['/', '/a'], ['/', '/b']]) await commit('prod-eu', app(1, paths))
    const before = await contentKeys('prod-eu')
    await expect(collectGarbage(raw, 'prod-eu', coldContext(), { keep: 1, graceMs: 0, clock: instantClock() })).rejects.toThrow(CorruptObject)
    expect(await contentKeys('prod-eu')).toEqual(before)
    const report = await collectGarbage(store, 'prod-eu', coldContext(), { keep: 1, graceMs: 0, clock: instantClock(Date.now() + 1000) })
    expect(report?.deleted.length).toBeGreaterThan(0)
    expect(await filesOf('prod-eu')).toEqual(fullRebuild(app(1, ['/', '/b'])).files)
  })

  it('seals in place, a budget at a time, what a cluster stored in the clear before it had a key, and then costs one read', async () => {
    const { raw, store, commit, filesOf, contentKeys } = await sealedSetup()
    await commit('prod-eu', app(3), raw)
    const total = (await contentKeys('prod-eu')).length
    const runs = []
    for (let run = 0; run < 20 && !runs.at(-1)?.complete; run++) runs.push((await sealPlaintext(raw, store, 'prod-eu', 4))!)
    expect(runs.at(-1)).toMatchObject({ complete: true })
    expect(runs.reduce((sum, report) => sum + report.examined, 0)).toBe(total)
    expect(runs.slice(0, -1).every((report) => report.examined === 4 && !report.complete)).toBe(true)
    for (const key of await contentKeys('prod-eu')) expect(isSealedBody((await raw.get(key))!.body), key).toBe(true)
    expect(await filesOf('prod-eu')).toEqual(fullRebuild(app(3)).files)
    expect(await sealPlaintext(raw, store, 'prod-eu', 4)).toEqual({ examined: 0, sealed: 0, complete: true })
  })

  it('marks nothing for a cluster without a data key, and reports each cluster of a run', async () => {
    const { raw, store, commit } = await sealedSetup()
    await commit('staging', app(1), raw)
    await commit('prod-us', app(1), raw)
    const outcomes = await sealAllPlaintext(raw, store)
    expect(outcomes).toEqual([
      { cluster: 'prod-us', report: expect.objectContaining({ complete: true, sealed: expect.any(Number) }) },
      { cluster: 'staging', report: undefined },
    ])
    expect(await raw.head('clusters/staging/sealed')).toBeUndefined()
  })
})
