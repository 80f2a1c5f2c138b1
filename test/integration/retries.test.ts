import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FILES } from '../../core/render/files.ts'
import { endpointSlice, ingress, service } from '../support/objects.ts'
import { serveCluster, type ServedCluster } from './serve-cluster.ts'

/**
 * proxy-next-upstream through the real HAProxy: one Service whose two endpoints share a port, one
 * sick (503 to everything) and one well, taken in turn by round robin. A request the sick one
 * fails is tried again on the well one only when the Ingress asks for it, and a POST only with
 * non_idempotent, as NGINX does.
 */

const listen = (server: Server, address: string, port = 0) => new Promise<Server>((resolve) => server.listen(port, address, () => resolve(server)))
const answer = (status: number, name: string) => (request: IncomingMessage, response: ServerResponse) => {
  request.resume()
  request.on('end', () => {
    response.statusCode = status
    response.setHeader('x-server', name)
    response.end(name)
  })
}

describe('proxy-next-upstream (retries on another server)', () => {
  let cluster: ServedCluster
  const servers: Server[] = []

  beforeAll(async () => {
    const sick = await listen(createServer(answer(503, 'sick')), '127.0.0.1')
    const port = (sick.address() as AddressInfo).port
    servers.push(sick, await listen(createServer(answer(200, 'well')), '127.0.0.2', port))
    const site = (name: string, annotations: Record<string, string> = {}) =>
      ingress({ name, annotations, rules: [{ host: `${name}.test`, paths: [{ path: '/', pathType: 'Prefix', service: 'pair', port }] }] })
    cluster = await serveCluster([
      service('pair', [{ port }]),
      endpointSlice('pair', ['127.0.0.1', '127.0.0.2'], [{ port }]),
      site('plain'),
      site('retry', { 'nginx.ingress.kubernetes.io/proxy-next-upstream': 'error timeout http_503' }),
      site('retry-post', { 'nginx.org/proxy-next-upstream': 'error timeout http_503 non_idempotent' }),
      site('one-try', { 'nginx.ingress.kubernetes.io/proxy-next-upstream': 'http_503', 'nginx.ingress.kubernetes.io/proxy-next-upstream-tries': '1' }),
    ])
  })

  afterAll(async () => {
    await cluster?.stop()
    for (const server of servers) server.close()
  })

  const statuses = async (host: string, method: string, count = 6) => {
    const seen: number[] = []
    for (let i = 0; i < count; i++) seen.push((await cluster.get(host, '/', { method, ...(method === 'POST' ? { body: 'order=1' } : {}) })).status)
    return seen
  }

  it('without it, the sick server answers every other request with its 503', async () => {
    expect(await statuses('plain.test', 'GET')).toContain(503)
  })

  it('with http_503, every GET the sick server fails is answered by the well one', async () => {
    expect(await statuses('retry.test', 'GET')).toEqual([200, 200, 200, 200, 200, 200])
  })

  it('a POST is not tried again unless non_idempotent is asked for', async () => {
    expect(await statuses('retry.test', 'POST')).toContain(503)
    expect(await statuses('retry-post.test', 'POST')).toEqual([200, 200, 200, 200, 200, 200])
  })

  it('proxy-next-upstream-tries 1 allows no second server', async () => {
    expect(await statuses('one-try.test', 'GET')).toContain(503)
  })

  it('the backend of an Ingress that asks says so in HAProxy words', () => {
    const config = cluster.files.get(FILES.backends) ?? ''
    expect(config).toContain('retry-on conn-failure empty-response response-timeout 503')
    expect(config).toContain('http-request disable-l7-retry if { method POST LOCK PATCH }')
    expect(config).toContain('retries 0')
  })
})
