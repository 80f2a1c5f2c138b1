import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startEdgeStack, type EdgeStack } from '../support/edge-stack.ts'
import { eventually } from '../support/eventually.ts'
import { request } from '../support/http-client.ts'
import { endpointSlice, ingress, service } from '../support/objects.ts'
import { answeredBy } from './serve-cluster.ts'

/**
 * Rollback and release end to end: `hapedge serve` on disk, a listening agent driven by the
 * function's pushes, HAProxy 2.6. A rollback serves the earlier routes; a change sent while the
 * cluster is pinned is held, not served; the release serves every change since.
 */
describe('rollback and release through HAProxy', () => {
  let stack: EdgeStack
  let closeAgent: () => void
  const paths = ['/']
  const shop = () =>
    ingress({
      name: 'shop',
      annotations: { 'hapedge.io/ssl-redirect': 'false' },
      rules: [{ host: 'shop.test', paths: paths.map((path) => ({ path, service: path === '/' ? 'web' : 'api' })) }],
    })
  const answer = async (path: string) => answeredBy(await request(`http://127.0.0.1:${stack.httpPort}${path}`, { headers: { host: 'shop.test' } }))
  const admin = async (path: string, body?: unknown) => {
    const response = await fetch(`${stack.served.url}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${stack.served.adminToken}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    })
    expect(response.status, `${path}: ${response.status}`).toBe(200)
    return (await response.json()) as { generation: number; reload: boolean; pinned: { generation: number; held: number } | null }
  }
  const addPath = async (path: string) => {
    paths.push(path)
    return stack.send([{ type: 'MODIFIED', object: shop() }])
  }

  beforeAll(async () => {
    stack = await startEdgeStack({ web: ['web-1'], api: ['api-1'] }, ({ backends }) => {
      const slice = (name: string) => endpointSlice(name, [backends.get(`${name}-1`)!.host], [{ port: backends.get(`${name}-1`)!.port }])
      return [service('web'), slice('web'), service('api'), slice('api'), shop()]
    })
    closeAgent = (await stack.listeningAgent()).close
  }, 60_000)
  afterAll(async () => {
    closeAgent?.()
    await stack?.stop()
  })

  it('serves the earlier routes after a rollback, holds changes while pinned, and serves them all on release', async () => {
    const before = await addPath('/a')
    await eventually('/a served', async () => (await answer('/a/x')) === 'api-1')

    const rolled = await admin('/v1/clusters/edge/rollback', { generation: before.generation - 1 })
    expect(rolled).toMatchObject({ generation: before.generation + 1, reload: false, pinned: { generation: before.generation - 1, held: 0 } })
    await eventually('/a no longer routed after the rollback', async () => (await answer('/a/x')) === 'web-1')

    const held = await addPath('/b')
    expect(held.generation).toBe(rolled.generation)
    // Give a push every chance to arrive: nothing moves while the cluster is pinned.
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(await answer('/b/x')).toBe('web-1')
    expect(await answer('/a/x')).toBe('web-1')

    const released = await admin('/v1/clusters/edge/release')
    expect(released).toMatchObject({ generation: rolled.generation + 1, pinned: null })
    await eventually('/a and /b served after the release', async () => (await answer('/a/x')) === 'api-1' && (await answer('/b/x')) === 'api-1')
    expect(await answer('/elsewhere')).toBe('web-1')
  }, 90_000)
})
