import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startNamedBackend, type NamedBackend } from '../support/named-backends.ts'
import { endpointSlice, ingress, service, type PathSpec } from '../support/objects.ts'
import { answeredBy, serveCluster, type ServedCluster } from './serve-cluster.ts'

/**
 * Services and EndpointSlices → HAProxy servers, checked by which real loopback servers answer.
 * Endpoints of one Service share a port on different loopback addresses, as Pods do.
 */

const HOST = 'backends.test'

/** Backends named `names[i]` on 127.0.0.(first+i), all on one port (the kernel's choice for the first). */
async function startPool(names: string[], first: number): Promise<NamedBackend[]> {
  const head = await startNamedBackend({ name: names[0]!, host: `127.0.0.${first}` })
  const rest = await Promise.all(names.slice(1).map((name, i) => startNamedBackend({ name, host: `127.0.0.${first + 1 + i}`, port: head.port })))
  return [head, ...rest]
}

async function countAnswers(cluster: ServedCluster, path: string, times: number): Promise<Map<string, number>> {
  const counts = new Map<string, number>()
  for (let i = 0; i < times; i++) {
    const by = answeredBy(await cluster.get(HOST, path))
    counts.set(by, (counts.get(by) ?? 0) + 1)
  }
  return counts
}

describe('backends from Services and EndpointSlices', () => {
  let backends: NamedBackend[] = []
  let cluster: ServedCluster
  const byName = (name: string) => backends.find((backend) => backend.name === name)!

  beforeAll(async () => {
    const pool = await startPool(['pool-a', 'pool-b', 'pool-c', 'pool-not-ready'], 2)
    const split = await startPool(['split-a', 'split-b'], 6)
    const unknownReady = await startPool(['absent-ready', 'null-ready'], 8)
    const [multiHttp, multiAdmin, drained] = await Promise.all(['multi-http', 'multi-admin', 'drained'].map((name) => startNamedBackend({ name })))
    const v6 = await startNamedBackend({ name: 'ipv6', host: '::1' })
    backends = [...pool, ...split, ...unknownReady, multiHttp!, multiAdmin!, drained!, v6]

    const route = (path: string, svc: string, port?: number | string): PathSpec => ({
      path,
      pathType: 'Exact',
      service: svc,
      ...(port === undefined ? {} : { port }),
    })
    cluster = await serveCluster([
      service('pool', [{ port: 80, name: 'http' }]),
      endpointSlice(
        'pool',
        [...pool.slice(0, 3).map((b) => ({ address: b.host, ready: true })), { address: pool[3]!.host, ready: false, serving: true, terminating: true }],
        [{ port: pool[0]!.port, name: 'http' }],
      ),

      service('split'),
      endpointSlice('split', [{ address: split[0]!.host, ready: true }], [{ port: split[0]!.port }], { name: 'split-1' }),
      endpointSlice('split', [{ address: split[1]!.host, ready: true }], [{ port: split[1]!.port }], { name: 'split-2' }),

      service('unknown-ready'),
      endpointSlice('unknown-ready', [{ address: unknownReady[0]!.host }, { address: unknownReady[1]!.host, ready: null }], [{ port: unknownReady[0]!.port }]),

      service('multi', [
        { port: 80, name: 'http' },
        { port: 8443, name: 'admin' },
      ]),
      endpointSlice(
        'multi',
        [{ address: '127.0.0.1', ready: true }],
        [
          { port: multiHttp!.port, name: 'http' },
          { port: multiAdmin!.port, name: 'admin' },
        ],
      ),

      service('ipv6'),
      endpointSlice('ipv6', [{ address: '::1', ready: true }], [{ port: v6.port }], { addressType: 'IPv6' }),

      service('drained'),
      endpointSlice('drained', [{ address: drained!.host, ready: false }], [{ port: drained!.port }]),
      service('lonely'),

      ingress({
        name: 'backends',
        rules: [
          {
            host: HOST,
            paths: [
              route('/pool', 'pool', 'http'),
              route('/split', 'split'),
              route('/unknown-ready', 'unknown-ready'),
              route('/ipv6', 'ipv6'),
              route('/by-name/http', 'multi', 'http'),
              route('/by-name/admin', 'multi', 'admin'),
              route('/by-number/80', 'multi', 80),
              route('/by-number/8443', 'multi', 8443),
              route('/missing-service', 'ghost'),
              route('/missing-port-number', 'multi', 9999),
              route('/missing-port-name', 'multi', 'grpc'),
              route('/no-ready-endpoints', 'drained'),
              route('/no-endpoint-slices', 'lonely'),
            ],
          },
        ],
      }),
    ])
  })

  afterAll(async () => {
    await cluster?.stop()
    await Promise.all(backends.map((backend) => backend.close()))
  })

  it('renders without rejections', () => {
    expect(cluster.model.rejections).toEqual([])
  })

  it('spreads load round robin over every ready endpoint and sends none to a not-ready one', async () => {
    const counts = await countAnswers(cluster, '/pool', 30)
    expect([...counts.keys()].sort()).toEqual(['pool-a', 'pool-b', 'pool-c'])
    for (const name of ['pool-a', 'pool-b', 'pool-c']) {
      expect(counts.get(name), name).toBeGreaterThanOrEqual(8)
      expect(counts.get(name), name).toBeLessThanOrEqual(12)
      expect(byName(name).requests, name).toBe(counts.get(name))
    }
    expect(byName('pool-not-ready').requests).toBe(0)
  })

  it('uses the endpoints of every EndpointSlice of a Service', async () => {
    const counts = await countAnswers(cluster, '/split', 10)
    expect(Object.fromEntries(counts)).toEqual({ 'split-a': 5, 'split-b': 5 })
  })

  it('counts an endpoint whose ready condition is absent or null as ready (EndpointConditions: nil means ready)', async () => {
    const counts = await countAnswers(cluster, '/unknown-ready', 6)
    expect([...counts.keys()].sort()).toEqual(['absent-ready', 'null-ready'])
  })

  it('reaches an IPv6 endpoint', async () => {
    expect(answeredBy(await cluster.get(HOST, '/ipv6'))).toBe('ipv6')
  })

  it.each([
    ['/by-name/http', 'multi-http'],
    ['/by-number/80', 'multi-http'],
    ['/by-name/admin', 'multi-admin'],
    ['/by-number/8443', 'multi-admin'],
  ])('selects the Service port %s and sends to its endpoint port (%s)', async (path, expected) => {
    expect(answeredBy(await cluster.get(HOST, path))).toBe(expected)
  })

  it.each(['/missing-service', '/missing-port-number', '/missing-port-name', '/no-ready-endpoints', '/no-endpoint-slices'])(
    'answers 503 for %s',
    async (path) => {
      const response = await cluster.get(HOST, path)
      expect(response.status).toBe(503)
      expect(response.headers['x-backend']).toBeUndefined()
    },
  )

  it('never sent a request to an endpoint that is not ready', () => {
    expect(byName('pool-not-ready').requests).toBe(0)
    expect(byName('drained').requests).toBe(0)
  })
})
