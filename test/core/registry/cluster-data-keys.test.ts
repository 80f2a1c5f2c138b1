import { describe, expect, it } from 'vitest'
import { openBody, sealBody } from '../../../core/crypto/sealed-body.ts'
import { Sealer } from '../../../core/crypto/sealer.ts'
import { sha256Text } from '../../../core/hash.ts'
import type { ObjectStore } from '../../../core/ports/object-store.ts'
import { ClusterDataKeys } from '../../../core/registry/cluster-data-keys.ts'
import { clusterSettings } from '../../../core/registry/cluster-record.ts'
import { Registry } from '../../../core/registry/registry.ts'
import { createMemoryStore } from '../../../functions/adapters/storage/memory-store.ts'
import { instantClock } from '../../support/contracts/cluster-apps.ts'

const SECRET = 'deployment-secret-for-the-data-key-tests-0123'
const CONTEXT = 'clusters/prod-eu/blobs/x'
const bytes = new TextEncoder().encode('-----BEGIN PRIVATE KEY-----')

/** One process: its own registry view, sealer and key cache over the shared store. */
function aProcess(store: ObjectStore, clock = instantClock()) {
  const registry = new Registry(store, sha256Text, clock)
  return { registry, keys: new ClusterDataKeys(registry, new Sealer({ current: SECRET }), clock, { ttlMs: 60_000 }), clock }
}

/** Whether two keys are the same key: what one seals, the other opens. */
async function same(a: CryptoKey, b: CryptoKey): Promise<boolean> {
  return openBody(b, await sealBody(a, bytes, CONTEXT), CONTEXT).then(
    () => true,
    () => false,
  )
}

describe('ClusterDataKeys: each cluster’s data key from its record', () => {
  it('gives a record without a key one, by compare-and-swap, and processes racing to do so agree on the winner’s', async () => {
    const store = createMemoryStore()
    const first = aProcess(store)
    await first.registry.register(clusterSettings.parse({ id: 'prod-eu' }))
    const racing = [first, aProcess(store), aProcess(store), aProcess(store)]
    const keys = await Promise.all(racing.map(({ keys }) => keys.keyOf('prod-eu')))
    const stored = (await first.registry.get('prod-eu'))!.dataKey
    expect(stored).toMatch(/^hpk1\./)
    for (const key of keys) expect(await same(keys[0]!, key!)).toBe(true)
    expect(await same(keys[0]!, await new Sealer({ current: SECRET }).dataKey(stored!))).toBe(true)
  })

  it('answers the key of the record’s dataKey, undefined for a cluster without a record, and caches for its ttl', async () => {
    const store = createMemoryStore()
    const { registry, keys, clock } = aProcess(store)
    expect(await keys.keyOf('nobody')).toBeUndefined()
    const sealer = new Sealer({ current: SECRET })
    const dataKey = await sealer.createClusterKey()
    await registry.register(clusterSettings.parse({ id: 'prod-eu', dataKey }))
    const key = await keys.keyOf('prod-eu')
    expect(await same(key!, await sealer.dataKey(dataKey))).toBe(true)

    // Purged and registered again with a new key: the cached key serves until its ttl ends.
    await store.delete(['registry/clusters/prod-eu'])
    const next = await sealer.createClusterKey()
    await registry.register(clusterSettings.parse({ id: 'prod-eu', dataKey: next }))
    expect(await keys.keyOf('prod-eu')).toBe(key)
    clock.advance(60_001)
    expect(await same((await keys.keyOf('prod-eu'))!, await sealer.dataKey(next))).toBe(true)
  })

  it('fails, and keeps no failure, when the record’s key does not unwrap under the configured secret', async () => {
    const store = createMemoryStore()
    const { registry, keys } = aProcess(store)
    const foreign = await new Sealer({ current: 'another-deployment-secret-entirely-0123' }).createClusterKey()
    await registry.register(clusterSettings.parse({ id: 'prod-eu', dataKey: foreign }))
    await expect(keys.keyOf('prod-eu')).rejects.toThrow(/wrapped under deployment key/)
    const read = (await registry.read('prod-eu'))!
    await registry.replace({ ...read.record, dataKey: await new Sealer({ current: SECRET }).createClusterKey() }, read.etag)
    expect(await keys.keyOf('prod-eu')).toBeDefined()
  })
})
