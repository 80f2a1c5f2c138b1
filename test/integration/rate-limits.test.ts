import { execFileSync } from 'node:child_process'
import { createServer, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FILES } from '../../core/render/files.ts'
import { limitExemptFile } from '../../core/render/render-limits.ts'
import { accessGroupName } from '../../core/model/access-group.ts'
import { request } from '../support/http-client.ts'
import { authSecret, configMap, endpointSlice, ingress, service } from '../support/objects.ts'
import { modified, startRuntimeCluster, type RuntimeCluster } from './runtime-cluster.ts'
import { serveCluster } from './serve-cluster.ts'

/**
 * Rate and connection limits through the real HAProxy, per client address (every request here
 * comes from 127.0.0.1), against a loopback backend that answers at once, or holds `/slow` until
 * released: a burst past the limit is refused with 429 (or the status asked for), an allowlisted
 * address is never refused, requests in progress past limit-connections are refused, and changed
 * limits are applied by map edits on the same workers.
 */

interface HoldingBackend extends Server {
  held: ServerResponse[]
  release(): void
}

function holdingBackend(): Promise<HoldingBackend> {
  const server = createServer((req, res) => {
    if (req.url?.startsWith('/slow')) server.held.push(res)
    else res.end('ok')
  }) as HoldingBackend
  server.held = []
  server.release = () => {
    for (const res of server.held.splice(0)) res.end('released')
  }
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)))
}

const site = (name: string, annotations: Record<string, string>) =>
  ingress({ name, annotations, rules: [{ host: `${name}.test`, paths: [{ path: '/', pathType: 'Prefix', service: 'echo' }] }] })

/**
 * `count` requests sent back to back to a host (well within a second); their statuses, sorted. One
 * at a time, since HAProxy's threads could otherwise count two requests before either is checked,
 * and refuse both where the limit passes one.
 */
async function burst(port: number, host: string, count: number, path = '/'): Promise<number[]> {
  const statuses: number[] = []
  for (let sent = 0; sent < count; sent++) statuses.push((await request(`http://127.0.0.1:${port}${path}`, { headers: { host } })).status)
  return statuses.sort()
}

const times = (count: number, status: number) => Array.from({ length: count }, () => status)

/** How many requests a burst passes for limit-rps r with multiplier m: r + r×m within one second (route-limits.ts). */
const passed = (rps: number, multiplier: number) => rps + rps * multiplier

describe('rate and connection limits', () => {
  let backend: HoldingBackend
  let cluster: RuntimeCluster
  const RPS = 2
  const MULTIPLIER = 1
  const burstLimited = (rps: number, extra: Record<string, string> = {}) =>
    site('burst', {
      'nginx.ingress.kubernetes.io/limit-rps': String(rps),
      'nginx.ingress.kubernetes.io/limit-burst-multiplier': String(MULTIPLIER),
      ...extra,
    })
  const unlimited = (extra: Record<string, string>) => site('later', extra)
  const port = () => cluster.httpPort

  beforeAll(async () => {
    backend = await holdingBackend()
    const { port } = backend.address() as AddressInfo
    cluster = await startRuntimeCluster(
      [
        service('echo'),
        endpointSlice('echo', [{ address: '127.0.0.1', ready: true }], [{ port }]),
        burstLimited(RPS),
        site('own-status', { 'hapedge.io/limit-rps': '1', 'hapedge.io/limit-burst-multiplier': '0', 'hapedge.io/limit-status-code': '503' }),
        site('haproxytech', { 'haproxy.org/rate-limit-requests': '2' }),
        site('allowed', {
          'nginx.ingress.kubernetes.io/limit-rps': '1',
          'nginx.ingress.kubernetes.io/limit-burst-multiplier': '0',
          'nginx.ingress.kubernetes.io/limit-allowlist': '127.0.0.1/32',
        }),
        site('connections', { 'haproxy-ingress.github.io/limit-connections': '2' }),
        authSecret('users', { auth: `admin:${execFileSync('openssl', ['passwd', '-6', 'secret'], { encoding: 'utf8' }).trim()}\n` }),
        site('guarded', {
          'nginx.ingress.kubernetes.io/auth-type': 'basic',
          'nginx.ingress.kubernetes.io/auth-secret': 'users',
          'nginx.ingress.kubernetes.io/limit-rps': '1',
          'nginx.ingress.kubernetes.io/limit-burst-multiplier': '0',
        }),
        unlimited({}),
      ],
      'hapedge-rate-limits',
    )
  })

  afterAll(async () => {
    backend?.release()
    await cluster?.stop()
    backend?.closeAllConnections()
    await new Promise((resolve) => backend?.close(resolve))
  })

  it('refuses with 429 the requests of a burst past the rate and its burst, and passes the rest', async () => {
    const allowed = passed(RPS, MULTIPLIER)
    expect(await burst(port(), 'burst.test', allowed + 4)).toEqual([...times(allowed, 200), ...times(4, 429)])
  })

  it('answers with the status the Ingress asks for: hapedge.io/limit-status-code, and haproxytech’s own default 403', async () => {
    expect(await burst(port(), 'own-status.test', 3)).toEqual([200, 503, 503])
    expect(await burst(port(), 'haproxytech.test', 4)).toEqual([200, 200, 403, 403])
  })

  it('never refuses a client its Ingress’s limit-allowlist holds', async () => {
    expect(await burst(port(), 'allowed.test', 6)).toEqual(times(6, 200))
  })

  it('counts requests before authentication, as NGINX’s preaccess phase: a client guessing passwords is refused past the limit', async () => {
    expect(await burst(port(), 'guarded.test', 3)).toEqual([401, 429, 429])
  })

  it('refuses a request past limit-connections while the others are in progress, and takes one again once they end', async () => {
    const url = `http://127.0.0.1:${port()}/slow`
    const holding = [request(url, { headers: { host: 'connections.test' } }), request(url, { headers: { host: 'connections.test' } })]
    while (backend.held.length < 2) await new Promise((resolve) => setTimeout(resolve, 20))
    expect((await request(url, { headers: { host: 'connections.test' } })).status).toBe(429)
    backend.release()
    expect((await Promise.all(holding)).map((answer) => answer.body)).toEqual(['released', 'released'])
    expect((await request(`http://127.0.0.1:${port()}/`, { headers: { host: 'connections.test' } })).status).toBe(200)
  })

  it('applies a changed limit, a new one and a new status by map edits on the same workers, without a reload', async () => {
    const workers = await cluster.workers()
    const raised = await cluster.atRuntime([modified(burstLimited(50))])
    expect(raised.applied.maps.map(({ name }) => name)).toEqual([FILES.limitPrefixMap])
    expect(await burst(port(), 'burst.test', 10)).toEqual(times(10, 200))
    // An Ingress that had no limits gains one, with a status of its own: still map entries only.
    const limited = await cluster.atRuntime([
      modified(unlimited({ 'hapedge.io/limit-rps': '1', 'hapedge.io/limit-burst-multiplier': '0', 'hapedge.io/limit-status-code': '503' })),
    ])
    expect(limited.applied.maps.map(({ name }) => name)).toEqual([FILES.limitPrefixMap])
    expect(await burst(port(), 'later.test', 3)).toEqual([200, 503, 503])
    expect(await cluster.workers()).toEqual(workers)
  })

  it('says that the first limit-allowlist of an Ingress reloads, and edits its addresses at runtime afterwards', async () => {
    const before = cluster.live.files()
    const { plan } = cluster.live.apply([modified(burstLimited(50, { 'nginx.ingress.kubernetes.io/limit-allowlist': '10.0.0.0/8' }))])
    expect(plan.reasons).toContain("Ingress default/burst gained limit-allowlist: the frontend's rule for it changes")
    expect(cluster.live.files().get(limitExemptFile(accessGroupName('default', 'burst')))).toBe('10.0.0.0/8\n')
    expect(before.get(limitExemptFile(accessGroupName('default', 'burst')))).toBeUndefined()
    const { plan: edited } = cluster.live.apply([modified(burstLimited(50, { 'nginx.ingress.kubernetes.io/limit-allowlist': '10.0.0.0/8,192.168.0.0/16' }))])
    expect(edited.reload).toBe(false)
    expect(edited.acls).toEqual([{ acl: limitExemptFile(accessGroupName('default', 'burst')), op: 'add', pattern: '192.168.0.0/16' }])
  })
})

describe('the settings ConfigMap’s limit-req-status-code and limit-conn-status-code', () => {
  it('answer the requests refused by a limit of an Ingress that sets no status', async () => {
    const backend = await holdingBackend()
    const { port } = backend.address() as AddressInfo
    const cluster = await serveCluster([
      service('echo'),
      endpointSlice('echo', [{ address: '127.0.0.1', ready: true }], [{ port }]),
      configMap({ 'limit-req-status-code': '503', 'limit-conn-status-code': '502' }),
      site('rated', { 'nginx.ingress.kubernetes.io/limit-rps': '1', 'nginx.ingress.kubernetes.io/limit-burst-multiplier': '0' }),
      site('connected', { 'nginx.ingress.kubernetes.io/limit-connections': '1' }),
    ])
    try {
      expect(await burst(cluster.httpPort, 'rated.test', 2)).toEqual([200, 503])
      const held = request(`http://127.0.0.1:${cluster.httpPort}/slow`, { headers: { host: 'connected.test' } })
      while (backend.held.length < 1) await new Promise((resolve) => setTimeout(resolve, 20))
      expect((await request(`http://127.0.0.1:${cluster.httpPort}/slow`, { headers: { host: 'connected.test' } })).status).toBe(502)
      backend.release()
      expect((await held).body).toBe('released')
    } finally {
      backend.release()
      await cluster.stop()
      backend.closeAllConnections()
      await new Promise((resolve) => backend.close(resolve))
    }
  })
})
