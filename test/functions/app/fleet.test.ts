import { describe, expect, it } from 'vitest'
import { app } from '../../support/contracts/cluster-apps.ts'
import { ingress, service } from '../../support/objects.ts'
import { ADMIN, harness } from './app-harness.ts'

const put = (object: unknown) => ({ type: 'MODIFIED', object })
const remove = (object: unknown) => ({ type: 'DELETED', object })
const json = async (response: Response) => ({ status: response.status, body: (await response.json()) as Record<string, any> })

/** Two clusters with some history: `prod` has three generations, `edge` one with a rejected Ingress. */
async function fleet() {
  const h = harness()
  const prod = await h.register('prod')
  const edge = await h.register('edge')
  await h.events('prod', prod, [...app(1), ...app(2)].map(put)) // 1
  await h.events('prod', prod, [put(app(2, ['/', '/v2'])[0])]) // 2
  await h.events('prod', prod, app(3).map(put)) // 3
  const clash = ingress({ name: 'late', createdAt: '2025-01-01T00:00:00Z', rules: [{ host: 'app-9.example.com', paths: [{ path: '/', service: 'other' }] }] })
  await h.events('edge', edge, [...app(9), clash, service('other')].map(put))
  await h.call('POST', '/v1/clusters/prod/agents/haproxy-0', prod, { generation: 2, manifest: null, applied: 'runtime', appliedAt: null, lastError: null })
  return { ...h, prod, edge }
}

describe('the fleet API', () => {
  it('shows every cluster: generation, counts, rejections, and each agent with how far behind it runs', async () => {
    const { call } = await fleet()
    const { status, body } = await json(await call('GET', '/v1/fleet', ADMIN))
    expect(status).toBe(200)
    const byId = Object.fromEntries(body.clusters.map((cluster: { id: string }) => [cluster.id, cluster]))
    expect(byId.prod).toMatchObject({
      generation: 3,
      pinned: null,
      counts: { ingresses: 3, hosts: 3, backends: 3, rejected: 0 },
      converged: false,
      agentsBehind: 1,
      agents: [{ pod: 'haproxy-0', generation: 2, behind: 1, applied: 'runtime' }],
    })
    expect(Date.parse(byId.prod.committedAt)).not.toBeNaN()
    expect(Date.parse(byId.prod.lastEventAt)).not.toBeNaN()
    expect(byId.edge).toMatchObject({ generation: 1, counts: { ingresses: 2, hosts: 1, rejected: 1 }, agents: [], converged: false })
    expect(body.answeredInMs).toEqual(expect.any(Number))

    const detail = await json(await call('GET', '/v1/fleet/edge', ADMIN))
    expect(detail.body.rejected).toEqual([{ object: 'Ingress default/late', reason: expect.stringContaining('app-9.example.com') }])
  })

  it('lists the retained generations newest first, in pages, with how each was made', async () => {
    const { call } = await fleet()
    const first = await json(await call('GET', '/v1/clusters/prod/generations?limit=2', ADMIN))
    expect(first.body).toMatchObject({ current: 3, pinned: null, next: 2 })
    expect(first.body.generations.map((g: { generation: number }) => g.generation)).toEqual([3, 2])
    expect(first.body.generations[1]).toMatchObject({ reload: false, runtime: { maps: expect.any(Number) }, origin: null })
    const second = await json(await call('GET', '/v1/clusters/prod/generations?limit=2&before=2', ADMIN))
    expect(second.body).toMatchObject({ next: null, generations: [{ generation: 1, reload: true }] })
  })

  it('compares any two generations: files and routes added, removed and changed', async () => {
    const { call } = await fleet()
    const { body } = await json(await call('GET', '/v1/clusters/prod/diff?from=1&to=3', ADMIN))
    expect(body.routes).toEqual([
      { host: 'app-2.example.com', match: 'Prefix', path: '/v2', change: 'added', backend: { before: null, after: expect.stringContaining('app-2') } },
      { host: 'app-3.example.com', match: 'Prefix', path: '/', change: 'added', backend: { before: null, after: expect.stringContaining('app-3') } },
    ])
    expect(body.files.map((file: { path: string; change: string }) => file.change)).not.toContain('removed')
    expect(body.files.length).toBeGreaterThan(0)
    const back = await json(await call('GET', '/v1/clusters/prod/diff?from=3&to=1', ADMIN))
    expect(back.body.routes.map((route: { change: string }) => route.change)).toEqual(['removed', 'removed'])
    // `to` defaults to the current generation.
    expect((await json(await call('GET', '/v1/clusters/prod/diff?from=1', ADMIN))).body).toEqual(body)
  })

  it('rolls back: a new generation with the earlier content, pinned; events while pinned are held, and a release serves them', async () => {
    const { call, events, prod } = await fleet()
    const rolled = await json(await call('POST', '/v1/clusters/prod/rollback', ADMIN, { generation: 1 }))
    expect(rolled).toMatchObject({ status: 200, body: { generation: 4, changed: true, pinned: { generation: 1, held: 0 } } })
    const one = (await json(await call('GET', '/v1/clusters/prod/generations?limit=5', ADMIN))).body.generations
    expect(one[0]).toMatchObject({ generation: 4, origin: { kind: 'rollback', to: 1 } })
    expect(one[0].manifest).toBe(one.find((g: { generation: number }) => g.generation === 1).manifest)

    const held = await json(await events('prod', prod, [remove(app(1)[0])]))
    expect(held.body).toMatchObject({ generation: 4, committed: true, pinned: { generation: 1, held: 1 } })
    const view = (await json(await call('GET', '/v1/fleet/prod', ADMIN))).body
    expect(view).toMatchObject({ generation: 4, pinned: { generation: 1, held: 1 }, counts: { ingresses: 2 } })

    const released = await json(await call('POST', '/v1/clusters/prod/release', ADMIN))
    expect(released.body).toMatchObject({ generation: 5, changed: true, pinned: null })
    const after = (await json(await call('GET', '/v1/fleet/prod', ADMIN))).body
    // app-1 was deleted while pinned; app-3 came after generation 1: both show once released.
    expect(after).toMatchObject({ generation: 5, pinned: null, counts: { ingresses: 2, hosts: 2 } })
    const diff = (await json(await call('GET', '/v1/clusters/prod/diff?from=4&to=5', ADMIN))).body
    expect(diff.routes.map((route: { host: string; change: string }) => `${route.change} ${route.host}`).sort()).toEqual([
      'added app-2.example.com',
      'added app-3.example.com',
      'removed app-1.example.com',
    ])
  })

  it('diffs a resync sent while pinned against the latest state, not the generation served', async () => {
    const { call, prod } = await fleet()
    await call('POST', '/v1/clusters/prod/rollback', ADMIN, { generation: 1 })
    // app-3 came after generation 1, and the cluster no longer has it: only the latest state knows to delete it.
    const list = { apiVersion: 'v1', kind: 'List', items: [...app(1), app(2, ['/', '/v2'])[0], ...app(2).slice(1)] }
    const resync = await json(await call('PUT', '/v1/clusters/prod/objects', prod, list))
    expect(resync.body).toMatchObject({ generation: 4, committed: true, pinned: { generation: 1, held: 1 } })
    const released = await json(await call('POST', '/v1/clusters/prod/release', ADMIN))
    expect(released.body).toMatchObject({ generation: 5 })
    expect((await json(await call('GET', '/v1/fleet/prod', ADMIN))).body.counts).toMatchObject({ ingresses: 2, hosts: 2 })
  })

  it('refuses what it cannot do with the reason and the field: unknown generation 404, release unpinned 409, bad input 400, no admin 401', async () => {
    const { call, prod } = await fleet()
    expect(await json(await call('POST', '/v1/clusters/prod/rollback', ADMIN, { generation: 40 }))).toMatchObject({
      status: 404,
      body: { error: { path: 'generation' } },
    })
    expect(await json(await call('POST', '/v1/clusters/prod/rollback', ADMIN, { generation: 'one' }))).toMatchObject({
      status: 400,
      body: { error: { path: 'generation' } },
    })
    expect(await json(await call('POST', '/v1/clusters/prod/release', ADMIN))).toMatchObject({
      status: 409,
      body: { error: { message: expect.stringContaining('not pinned') } },
    })
    expect(await json(await call('GET', '/v1/clusters/prod/diff?from=0', ADMIN))).toMatchObject({ status: 400, body: { error: { path: 'from' } } })
    expect(await json(await call('GET', '/v1/clusters/prod/generations?limit=1000', ADMIN))).toMatchObject({ status: 400, body: { error: { path: 'limit' } } })
    for (const [method, path] of [
      ['GET', '/v1/fleet'],
      ['GET', '/v1/fleet/prod'],
      ['GET', '/v1/clusters/prod/generations'],
      ['POST', '/v1/clusters/prod/release'],
    ] as const) {
      expect((await call(method, path, prod)).status, `${method} ${path} with the cluster's token`).toBe(401)
    }
    expect((await call('GET', '/v1/clusters/nobody/generations', ADMIN)).status).toBe(404)
  })
})
