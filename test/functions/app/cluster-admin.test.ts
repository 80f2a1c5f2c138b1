import { describe, expect, it } from 'vitest'
import { collectAllGarbage } from '../../../core/garbage/collect-all-garbage.ts'
import { createMemoryStore } from '../../../functions/adapters/storage/memory-store.ts'
import { app, coldContext, instantClock } from '../../support/contracts/cluster-apps.ts'
import { ADMIN, harness } from './app-harness.ts'

const put = (object: unknown) => ({ type: 'MODIFIED', object })

async function keysOf(store: ReturnType<typeof createMemoryStore>, prefix: string) {
  const keys: string[] = []
  for await (const object of store.list(prefix)) keys.push(object.key)
  return keys
}

describe('managing one cluster through the admin API', () => {
  it('refuses each route without a token and with a cluster’s token (401), and answers 404 for an unknown cluster', async () => {
    const { call, register } = harness()
    const token = await register('prod-eu')
    const routes: [string, string, unknown?][] = [
      ['GET', '/v1/clusters/prod-eu'],
      ['PATCH', '/v1/clusters/prod-eu', { httpBind: ':8080' }],
      ['POST', '/v1/clusters/prod-eu/token', {}],
      ['DELETE', '/v1/clusters/prod-eu', {}],
    ]
    for (const [method, path, body] of routes) {
      expect((await call(method, path, undefined, body)).status, `${method} ${path} without a token`).toBe(401)
      expect((await call(method, path, token, body)).status, `${method} ${path} with the cluster's token`).toBe(401)
      expect((await call(method, path.replace('prod-eu', 'nobody'), ADMIN, body)).status, `${method} ${path} of an unknown cluster`).toBe(404)
    }
    expect((await call('GET', '/v1/clusters/prod-eu', ADMIN)).status).toBe(200)
  })

  it('shows one cluster’s public record and merges a settings change into it, keeping what was not sent', async () => {
    const { call, register } = harness()
    await register('prod-eu', { httpBind: '0.0.0.0:8080' })
    const patched = await call('PATCH', '/v1/clusters/prod-eu', ADMIN, { id: 'prod-eu', httpsBind: ':8443', agentOrigins: ['http://10.0.0.7:9000'] })
    expect(patched.status).toBe(200)
    const shown = await (await call('GET', '/v1/clusters/prod-eu', ADMIN)).json()
    // The PATCH answers the record and what rendering it did (nothing: the cluster has no generation yet).
    expect(await patched.json()).toEqual({ ...shown, generation: null, committed: false, reload: false, reasons: [] })
    expect(shown).toMatchObject({
      id: 'prod-eu',
      httpBind: '0.0.0.0:8080',
      httpsBind: ':8443',
      ingressClass: 'hapedge',
      agentOrigins: ['http://10.0.0.7:9000'],
    })
    expect(JSON.stringify(shown)).not.toMatch(/tokenSha256|dataKey/)
  })

  it('refuses a bad settings change with the field’s path (400), leaving the record as it was', async () => {
    const { call, register } = harness()
    await register('prod-eu')
    const cases: [unknown, string][] = [
      [{ httpBind: 'everywhere' }, 'httpBind'],
      [{ configMap: 'no-slash' }, 'configMap'],
      [{ agentOrigins: ['ftp://x'] }, 'agentOrigins[0]'],
      [{ id: 'prod-us' }, 'id'],
      [{ tokenSha256: '0'.repeat(64) }, ''],
      [{ removedAt: '2026-01-01T00:00:00Z' }, ''],
    ]
    for (const [body, path] of cases) {
      const response = await call('PATCH', '/v1/clusters/prod-eu', ADMIN, body)
      expect(response.status, JSON.stringify(body)).toBe(400)
      expect(await response.json(), JSON.stringify(body)).toEqual({ error: { message: expect.any(String), path } })
    }
    expect(await (await call('GET', '/v1/clusters/prod-eu', ADMIN)).json()).toMatchObject({ httpBind: '0.0.0.0:80', configMap: 'hapedge/hapedge' })
  })

  it('answers 409 when the record changes between the read and the write of a change', async () => {
    const inner = createMemoryStore()
    let interleave: (() => unknown) | undefined
    const racing = {
      ...inner,
      put: async (key: string, body: Uint8Array | string, condition?: Parameters<typeof inner.put>[2]) => {
        const before = interleave
        interleave = undefined
        if (before && condition && 'ifMatch' in condition) await before()
        return inner.put(key, body, condition)
      },
    }
    const { call, register } = harness({ store: racing })
    await register('prod-eu')
    for (const [method, path, body] of [
      ['PATCH', '/v1/clusters/prod-eu', { httpBind: ':8080' }],
      ['POST', '/v1/clusters/prod-eu/token', {}],
      ['DELETE', '/v1/clusters/prod-eu', {}],
    ] as const) {
      interleave = () => call('PATCH', '/v1/clusters/prod-eu', ADMIN, { ingressClass: `by-${method.toLowerCase()}` })
      const raced = await call(method, path, ADMIN, body)
      expect(raced.status, `${method} ${path}`).toBe(409)
      expect(await raced.json()).toEqual({ error: { message: expect.stringMatching(/changed while/) } })
    }
    expect(await (await call('GET', '/v1/clusters/prod-eu', ADMIN)).json()).toMatchObject({ httpBind: '0.0.0.0:80', ingressClass: 'by-delete' })
  })

  it('rotates a token: the new one is shown once, and the old one works until the overlap ends', async () => {
    const clock = instantClock()
    const { call, register, events } = harness({ clock })
    const old = await register('prod-eu')
    const rotated = await call('POST', '/v1/clusters/prod-eu/token', ADMIN, { overlapSeconds: 600 })
    expect(rotated.status).toBe(200)
    const { token, ...shown } = (await rotated.json()) as { token: string }
    expect(token).toMatch(/^hpe\.prod-eu\.[\w-]{43}$/)
    expect(shown).toMatchObject({ previousTokenExpiresAt: '2026-12-03T00:10:00.000Z' })
    expect(JSON.stringify(shown)).not.toMatch(/previousTokenSha256/)
    expect((await events('prod-eu', old, app(1).map(put))).status).toBe(200)
    expect((await events('prod-eu', token, app(2).map(put))).status).toBe(200)
    clock.advance(600_000)
    expect((await events('prod-eu', old, app(3).map(put))).status).toBe(401)
    expect((await events('prod-eu', token, app(3).map(put))).status).toBe(200)
  })

  it('rotates with an hour’s overlap by default, and refuses an overlap over 7 days with its path', async () => {
    const { call, register } = harness({ clock: instantClock() })
    await register('prod-eu')
    expect(await (await call('POST', '/v1/clusters/prod-eu/token', ADMIN)).json()).toMatchObject({ previousTokenExpiresAt: '2026-12-03T01:00:00.000Z' })
    const tooLong = await call('POST', '/v1/clusters/prod-eu/token', ADMIN, { overlapSeconds: 7 * 86400 + 1 })
    expect(tooLong.status).toBe(400)
    expect(await tooLong.json()).toEqual({ error: { message: expect.stringMatching(/7 days/), path: 'overlapSeconds' } })
  })

  it('removes a cluster: its token is refused, it is listed as removed, its id stays taken, and GC purges its keys and no other’s', async () => {
    const clock = instantClock()
    const { call, register, events, store } = harness({ clock })
    const gone = await register('gone')
    const kept = await register('kept')
    await events('gone', gone, app(1).map(put))
    await events('kept', kept, app(1).map(put))
    const keptBefore = await keysOf(store, 'clusters/kept/')

    const bad = await call('DELETE', '/v1/clusters/gone', ADMIN, { graceSeconds: -1 })
    expect(bad.status).toBe(400)
    expect(await bad.json()).toMatchObject({ error: { path: 'graceSeconds' } })
    const removed = await call('DELETE', '/v1/clusters/gone', ADMIN, { graceSeconds: 60 })
    expect(await removed.json()).toMatchObject({ id: 'gone', removedAt: '2026-12-03T00:00:00.000Z', purgeAfter: '2026-12-03T00:01:00.000Z' })
    expect((await events('gone', gone, app(2).map(put))).status).toBe(401)
    expect((await call('GET', '/v1/clusters/gone/head', ADMIN)).status).toBe(401)
    expect((await call('DELETE', '/v1/clusters/gone', ADMIN)).status).toBe(409)
    expect((await call('PATCH', '/v1/clusters/gone', ADMIN, { httpBind: ':81' })).status).toBe(409)
    const listed = (await (await call('GET', '/v1/clusters', ADMIN)).json()) as { clusters: { id: string; removedAt?: string }[] }
    expect(listed.clusters.map(({ id, removedAt }) => [id, removedAt ?? null])).toEqual([
      ['gone', '2026-12-03T00:00:00.000Z'],
      ['kept', null],
    ])
    const again = await call('POST', '/v1/clusters', ADMIN, { id: 'gone' })
    expect(again.status).toBe(409)
    expect(await again.json()).toMatchObject({ error: { message: expect.stringMatching(/purged after 2026-12-03T00:01:00/), path: 'id' } })

    const early = await collectAllGarbage(store, coldContext, { clock, keep: 50 })
    expect(early.filter((outcome) => 'purged' in outcome)).toEqual([])
    expect(await keysOf(store, 'clusters/gone/')).not.toEqual([])
    clock.advance(60_000)
    const due = await collectAllGarbage(store, coldContext, { clock, keep: 50 })
    expect(due).toContainEqual({ cluster: 'gone', purged: expect.any(Number) })
    expect(await keysOf(store, 'clusters/gone/')).toEqual([])
    expect(await keysOf(store, 'registry/clusters/')).toEqual(['registry/clusters/kept'])
    expect(await keysOf(store, 'clusters/kept/')).toEqual(expect.arrayContaining(keptBefore.filter((key) => !key.includes('/generations/'))))
    expect((await events('kept', kept, app(2).map(put))).status).toBe(200)
    expect((await call('POST', '/v1/clusters', ADMIN, { id: 'gone' })).status).toBe(201)
  })
})
