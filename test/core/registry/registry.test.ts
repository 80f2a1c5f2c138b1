import { describe, expect, it } from 'vitest'
import { sha256Text } from '../../../core/hash.ts'
import { purgeRemovedClusters } from '../../../core/registry/purge-removed-clusters.ts'
import { Registry } from '../../../core/registry/registry.ts'
import { createMemoryStore } from '../../../functions/adapters/storage/memory-store.ts'
import { instantClock } from '../../support/contracts/cluster-apps.ts'

const settings = (id: string) => ({
  id,
  ingressClass: 'haproxy',
  configMap: 'hapedge/haproxy',
  httpBind: ':80',
  httpsBind: ':443',
  snippets: 'forbidden' as const,
  agentOrigins: [],
})

describe('the cluster registry', () => {
  it('accepts the previous token only until its overlap ends, and the current one throughout', async () => {
    const clock = instantClock()
    const registry = new Registry(createMemoryStore(), sha256Text, clock)
    const { token: old } = (await registry.register(settings('a')))!
    const { record, token } = (await registry.rotateToken((await registry.read('a'))!, 60))!
    expect(record.previousTokenExpiresAt).toBe('2026-12-03T00:01:00.000Z')
    expect([registry.authenticates(record, old), registry.authenticates(record, token)]).toEqual([true, true])
    clock.advance(60_000)
    expect([registry.authenticates(record, old), registry.authenticates(record, token)]).toEqual([false, true])
  })

  it('refuses a change made to a record that changed since it was read', async () => {
    const registry = new Registry(createMemoryStore(), sha256Text, instantClock())
    await registry.register(settings('a'))
    const read = (await registry.read('a'))!
    expect(await registry.replace({ ...read.record, httpBind: ':8080' }, read.etag)).toBe(true)
    expect(await registry.replace({ ...read.record, httpBind: ':8081' }, read.etag)).toBe(false)
    expect(await registry.rotateToken(read, 0)).toBeUndefined()
    expect((await registry.get('a'))!.httpBind).toBe(':8080')
  })

  it("parses a record once while its bytes stay the same, and sees another replica's change or removal at the next read", async () => {
    const store = createMemoryStore()
    const [here, replica] = [new Registry(store, sha256Text, instantClock()), new Registry(store, sha256Text, instantClock())]
    const { token } = (await here.register(settings('a')))!
    const first = (await here.read('a'))!
    expect(await here.read('a')).toBe(first)
    expect(() => Object.assign(first.record, { httpBind: ':1' })).toThrow()
    const rotated = (await replica.rotateToken((await replica.read('a'))!, 0))!
    expect((await here.get('a'))!.tokenSha256).toBe(rotated.record.tokenSha256)
    expect(here.authenticates((await here.get('a'))!, token)).toBe(false)
    await replica.remove((await replica.read('a'))!, 60)
    expect((await here.get('a'))!.removedAt).toBeDefined()
    await store.delete(['registry/clusters/a'])
    expect(await here.read('a')).toBeUndefined()
  })

  it('refuses every token of a removed cluster, and purges its keys and record only once its grace has passed', async () => {
    const clock = instantClock()
    const store = createMemoryStore()
    const registry = new Registry(store, sha256Text, clock)
    const { token } = (await registry.register(settings('a')))!
    await registry.register(settings('ab'))
    for (const key of ['clusters/a/HEAD', 'clusters/a/blobs/1', 'clusters/ab/HEAD', 'clusters/ab/blobs/1']) await store.put(key, 'x')
    const removed = (await registry.remove((await registry.read('a'))!, 3600))!
    expect(removed).toMatchObject({ removedAt: '2026-12-03T00:00:00.000Z', purgeAfter: '2026-12-03T01:00:00.000Z' })
    expect(registry.authenticates(removed, token)).toBe(false)

    expect(await purgeRemovedClusters(store, clock.now())).toEqual([])
    clock.advance(3600_000)
    expect(await purgeRemovedClusters(store, clock.now())).toEqual([{ cluster: 'a', deleted: 2 }])
    const left: string[] = []
    for await (const object of store.list('')) left.push(object.key)
    expect(left).toEqual(['clusters/ab/HEAD', 'clusters/ab/blobs/1', 'registry/clusters/ab'])
  })
})
