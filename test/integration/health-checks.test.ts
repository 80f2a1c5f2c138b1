import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { eventually } from '../support/eventually.ts'
import { request } from '../support/http-client.ts'
import { endpointSlice, ingress, service } from '../support/objects.ts'
import { modified, startRuntimeCluster, type RuntimeCluster } from './runtime-cluster.ts'

/**
 * Active health checks through the real HAProxy in master-worker mode, as the agent runs it: one
 * Service whose endpoints share a port, one healthy and the others failing their /healthz. A
 * failing endpoint leaves rotation without a reload, also one the agent adds at runtime.
 */

const HOST = 'checked.test'
const listen = (server: Server, address: string, port = 0) => new Promise<Server>((resolve) => server.listen(port, address, () => resolve(server)))
const answering = (name: string, healthy: boolean) => (request: IncomingMessage, response: ServerResponse) => {
  response.statusCode = request.url === '/healthz' && !healthy ? 500 : 200
  response.end(name)
}

describe('health checks (hapedge.io/health-check-path and its timing)', () => {
  let cluster: RuntimeCluster
  const servers: Server[] = []
  let port: number
  const site = ingress({
    name: 'checked',
    annotations: {
      'hapedge.io/health-check-path': '/healthz',
      'hapedge.io/health-check-interval': '100ms',
      'hapedge.io/health-check-fall': '1',
      'hapedge.io/health-check-rise': '1',
    },
    rules: [{ host: HOST, paths: [{ service: 'pair' }] }],
  })

  beforeAll(async () => {
    const well = await listen(createServer(answering('well', true)), '127.0.0.1')
    port = (well.address() as AddressInfo).port
    servers.push(
      well,
      await listen(createServer(answering('sick', false)), '127.0.0.2', port),
      await listen(createServer(answering('late', false)), '127.0.0.3', port),
    )
    cluster = await startRuntimeCluster(
      [service('pair', [{ port: 80 }]), endpointSlice('pair', ['127.0.0.1', '127.0.0.2'], [{ port }]), site],
      'hapedge-health-checks',
    )
  })

  afterAll(async () => {
    await cluster?.stop()
    for (const server of servers) server.close()
  })

  const answers = async (count: number) => {
    const seen: string[] = []
    for (let i = 0; i < count; i++) seen.push((await request(`http://127.0.0.1:${cluster.httpPort}/`, { headers: { host: HOST } })).body)
    return seen
  }

  it('an endpoint failing its check leaves rotation: every request is answered by the healthy one', async () => {
    await eventually('the failing endpoint to leave rotation', async () => (await answers(4)).every((name) => name === 'well'))
    expect(new Set(await answers(8))).toEqual(new Set(['well']))
  })

  it('an endpoint the agent adds at runtime is checked too (enable health), and leaves rotation without a reload', async () => {
    const before = await cluster.workers()
    const { applied } = await cluster.atRuntime([modified(endpointSlice('pair', ['127.0.0.1', '127.0.0.2', '127.0.0.3'], [{ port }]))])
    expect(applied.servers.length).toBeGreaterThan(0)
    // An added slot's checks are off until enabled: without `enable health` it would stay in rotation.
    await eventually('the failing endpoint added at runtime to leave rotation', async () => (await answers(6)).every((name) => name === 'well'), 10_000)
    expect(new Set(await answers(9))).toEqual(new Set(['well']))
    expect(await cluster.workers()).toEqual(before)
  })
})
