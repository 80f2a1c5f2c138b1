import { describe, expect, it } from 'vitest'
import type { RoutesAnswer } from '../../../core/api/routes-answer.ts'
import { app } from '../../support/contracts/cluster-apps.ts'
import { ingress, service } from '../../support/objects.ts'
import { ADMIN, harness } from './app-harness.ts'

const put = (object: unknown) => ({ type: 'MODIFIED', object })

/** A cluster of twelve apps, one with two paths, plus a default backend and a route whose Service has no endpoints. */
async function cluster() {
  const h = harness()
  const token = await h.register('prod')
  const apps = Array.from({ length: 12 }, (_, i) => app(i + 1, i === 0 ? ['/', '/api'] : ['/']))
  const fallback = ingress({
    name: 'fallback',
    defaultBackend: { service: 'app-2' },
    rules: [{ host: 'empty.example.com', paths: [{ path: '/x', pathType: 'Exact', service: 'nobody' }] }],
  })
  const response = await h.events('prod', token, [...apps.flat(), fallback, service('nobody')].map(put))
  expect(response.status).toBe(200)
  const get = async (query = '', as = token) => {
    const answer = await h.call('GET', `/v1/clusters/prod/routes${query}`, as)
    return { status: answer.status, body: (await answer.json()) as RoutesAnswer & { error?: { path: string } } }
  }
  return { ...h, token, get }
}

describe('GET /v1/clusters/{id}/routes', () => {
  it('lists every host and path with its backend, servers and owner, hosts in byte order', async () => {
    const { get } = await cluster()
    const { status, body } = await get()
    expect(status).toBe(200)
    expect(body.generation).toBe(1)
    const hosts = body.routes.map((route) => route.host)
    expect(hosts).toEqual([...hosts].sort())
    expect(body.routes.filter((route) => route.host === 'app-1.example.com')).toEqual([
      expect.objectContaining({
        match: 'Prefix',
        path: '/',
        backend: 'default_app-1_80',
        owner: 'Ingress default/app-1',
        servers: [expect.objectContaining({ address: '10.0.0.2' })],
      }),
      expect.objectContaining({ match: 'Prefix', path: '/api', backend: 'default_app-1_80' }),
    ])
    expect(body.routes.find((route) => route.host === 'empty.example.com')).toMatchObject({ match: 'Exact', path: '/x', servers: [] })
    expect(body.defaultBackend).toEqual({ backend: 'default_app-2_80', servers: [expect.objectContaining({ address: '10.0.0.3' })] })
    expect(body.routes).toHaveLength(14)
    expect(body.next).toBeNull()
  })

  it('pages by host without splitting one, and filters one host', async () => {
    const { get } = await cluster()
    const seen: string[] = []
    let query = '?limit=5'
    for (let pages = 0; pages < 10; pages++) {
      const { body } = await get(query)
      seen.push(...body.routes.map((route) => `${route.host}${route.path}`))
      // Only the first page says what no rule matches.
      expect(body.defaultBackend === undefined).toBe(pages > 0)
      if (!body.next) break
      query = `?limit=5&after=${body.next}`
    }
    const whole = (await get()).body.routes.map((route) => `${route.host}${route.path}`)
    expect(seen).toEqual(whole)
    const one = await get('?host=app-1.example.com')
    expect(one.body.routes.map((route) => route.path)).toEqual(['/', '/api'])
  })

  it('opens to the cluster token and the admin token, and refuses a host that is no host with its path', async () => {
    const { get } = await cluster()
    expect((await get('', ADMIN)).status).toBe(200)
    expect((await get('', 'hpe.prod.wrong')).status).toBe(401)
    const bad = await get('?host=a%0Ab')
    expect(bad.status).toBe(400)
    expect(bad.body.error?.path).toBe('host')
  })

  it('answers 404 before the first generation', async () => {
    const h = harness()
    const token = await h.register('empty')
    expect((await h.call('GET', '/v1/clusters/empty/routes', token)).status).toBe(404)
  })
})
