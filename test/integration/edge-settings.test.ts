import { createServer, type Server, type ServerResponse } from 'node:http'
import { type AddressInfo, connect as connectTcp } from 'node:net'
import { join } from 'node:path'
import { connect, type TLSSocket } from 'node:tls'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FILES } from '../../core/render/files.ts'
import { fullRebuild } from '../../core/render/full-rebuild.ts'
import { writeRendered } from '../../functions/adapters/generation-files/write-rendered.ts'
import { masterReload } from '../../processes/agent/master-reload.ts'
import { haproxySocket } from '../../processes/agent/haproxy-socket.ts'
import { parseShowProc } from '../../processes/agent/show-proc.ts'
import { makeCertificate } from '../support/certificates.ts'
import { eventually } from '../support/eventually.ts'
import { freePort } from '../support/free-port.ts'
import { haproxyBinary } from '../support/haproxy.ts'
import { request } from '../support/http-client.ts'
import { startMasterWorker } from '../support/master-worker.ts'
import { configMap, endpointSlice, ingress, service, tlsSecret } from '../support/objects.ts'
import { makeTempDir, removeTempDir } from '../support/temp-dir.ts'
import { serveCluster, type ServedCluster } from './serve-cluster.ts'

/** The settings ConfigMap's process and TLS keys through the real HAProxy (core/model/edge-settings.ts). */

const HOST = 'edge.test'

/** The TLS version and cipher a handshake with the HTTPS bind ends with, or the error that ended it. */
function handshake(port: number, options: { maxVersion?: 'TLSv1.2' | 'TLSv1.3'; minVersion?: 'TLSv1.2' | 'TLSv1.3' }) {
  return new Promise<{ protocol: string | null; cipher: string } | { error: string }>((resolve) => {
    const socket: TLSSocket = connect({ host: '127.0.0.1', port, servername: HOST, rejectUnauthorized: false, ...options })
    socket.once('secureConnect', () => {
      resolve({ protocol: socket.getProtocol(), cipher: socket.getCipher().standardName })
      socket.destroy()
    })
    socket.once('error', (error) => resolve({ error: error.message }))
  })
}

describe('edge settings: TLS versions and suites, maxconn, the Prometheus exporter', () => {
  let cluster: ServedCluster
  let dir: string
  let metricsPort: number
  const backend = createServer((_request, response) => response.end('ok'))

  beforeAll(async () => {
    dir = await makeTempDir('hapedge-edge')
    const certificate = await makeCertificate({ dir, hosts: [HOST], name: 'edge' })
    await new Promise<void>((resolve) => backend.listen(0, '127.0.0.1', resolve))
    metricsPort = await freePort()
    cluster = await serveCluster([
      configMap({
        'ssl-protocols': 'TLSv1.3',
        'ssl-cipher-suites': 'TLS_AES_256_GCM_SHA384',
        'max-connections': '500',
        'timeout-tunnel': '2h',
        'close-spread-time': '5s',
        'prometheus-bind': `127.0.0.1:${metricsPort}`,
        'use-http2': 'false',
      }),
      service('web'),
      endpointSlice('web', ['127.0.0.1'], [{ port: (backend.address() as AddressInfo).port }]),
      tlsSecret('edge-tls', certificate.certPem, certificate.keyPem),
      ingress({ name: 'edge', tls: [{ hosts: [HOST], secretName: 'edge-tls' }], rules: [{ host: HOST, paths: [{ service: 'web' }] }] }),
    ])
  })

  afterAll(async () => {
    await cluster?.stop()
    backend.close()
    if (dir) await removeTempDir(dir)
  })

  it('ssl-protocols TLSv1.3 refuses a TLS 1.2 client, and ssl-cipher-suites picks the suite', async () => {
    expect(await handshake(cluster.httpsPort, { maxVersion: 'TLSv1.2' })).toMatchObject({ error: expect.any(String) })
    expect(await handshake(cluster.httpsPort, { minVersion: 'TLSv1.3' })).toEqual({ protocol: 'TLSv1.3', cipher: 'TLS_AES_256_GCM_SHA384' })
  })

  it('use-http2 false offers HTTP/1.1 only on the HTTPS bind (ALPN)', async () => {
    const alpn = await new Promise<string | false | null>((resolve, reject) => {
      const socket = connect({ host: '127.0.0.1', port: cluster.httpsPort, servername: HOST, rejectUnauthorized: false, ALPNProtocols: ['h2', 'http/1.1'] })
      socket.once('secureConnect', () => {
        resolve(socket.alpnProtocol)
        socket.destroy()
      })
      socket.once('error', reject)
    })
    expect(alpn).toBe('http/1.1')
  })

  it('prometheus-bind serves HAProxy’s own metrics, per frontend and backend', async () => {
    const answer = await request(`http://127.0.0.1:${metricsPort}/metrics`)
    expect(answer.status).toBe(200)
    expect(answer.body).toMatch(/^haproxy_process_max_connections 500$/m)
    expect(answer.body).toContain('haproxy_frontend_http_requests_total{proxy="hapedge"}')
    expect((await request(`http://127.0.0.1:${metricsPort}/`)).status).toBe(404)
  })

  it('a bad value is an issue naming its key, and the others still apply', () => {
    const { model, files } = fullRebuild([
      configMap({ 'ssl-protocols': 'SSLv3', 'max-connections': '0', 'prometheus-bind': 'evil host:1', 'hard-stop-after': '30s' }),
    ])
    const settingsRejections = model.rejections.filter(({ object }) => object === 'ConfigMap hapedge/hapedge')
    expect(settingsRejections.map(({ reason }) => reason.split(':')[0])).toEqual([
      'data["max-connections"]',
      'data["prometheus-bind"]',
      'data["ssl-protocols"]',
    ])
    const global = files.get(FILES.global)!
    expect(global).toContain('    hard-stop-after 30s\n')
    expect(global).toContain('ssl-min-ver TLSv1.2 no-tls-tickets')
    expect(global).not.toContain('prometheus')
  })
})

/** The status line of one request on a raw connection from `from`, after `proxyLine` when given; `closed` when HAProxy closes without answering. */
function statusVia(port: number, from: string, proxyLine?: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = connectTcp({ port, host: '127.0.0.1', localAddress: from })
    let answer = ''
    socket.setTimeout(5_000, () => socket.destroy())
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString('latin1')))
    socket.on('error', () => undefined)
    socket.on('close', () => resolve(answer.split('\r\n')[0] || 'closed'))
    socket.write(`${proxyLine ?? ''}GET / HTTP/1.1\r\nHost: ${HOST}\r\nConnection: close\r\n\r\n`)
  })
}

describe('use-proxy-protocol: the PROXY protocol read from the trusted proxies only', () => {
  let cluster: ServedCluster
  const backend = createServer((_request, response) => response.end('ok'))

  beforeAll(async () => {
    await new Promise<void>((resolve) => backend.listen(0, '127.0.0.1', resolve))
    cluster = await serveCluster([
      configMap({ 'use-proxy-protocol': 'true', 'proxy-real-ip-cidr': '127.0.0.1/32' }),
      service('web'),
      endpointSlice('web', ['127.0.0.1'], [{ port: (backend.address() as AddressInfo).port }]),
      ingress({
        name: 'edge',
        annotations: { 'nginx.ingress.kubernetes.io/allowlist-source-range': '203.0.113.0/24' },
        rules: [{ host: HOST, paths: [{ service: 'web' }] }],
      }),
    ])
  })

  afterAll(async () => {
    await cluster?.stop()
    backend.close()
  })

  it('a trusted proxy’s PROXY header gives the client’s address (allowed or refused by source range), and its connection without one is closed', async () => {
    expect(await statusVia(cluster.httpPort, '127.0.0.1', `PROXY TCP4 203.0.113.7 127.0.0.1 50000 ${cluster.httpPort}\r\n`)).toBe('HTTP/1.1 200 OK')
    expect(await statusVia(cluster.httpPort, '127.0.0.1', `PROXY TCP4 198.51.100.1 127.0.0.1 50000 ${cluster.httpPort}\r\n`)).toBe('HTTP/1.1 403 Forbidden')
    expect(await statusVia(cluster.httpPort, '127.0.0.1')).toBe('closed')
  })

  it('another address is no proxy: its connection is read as HTTP, and a PROXY header from it is not believed', async () => {
    expect(await statusVia(cluster.httpPort, '127.0.0.2')).toBe('HTTP/1.1 403 Forbidden')
    expect(await statusVia(cluster.httpPort, '127.0.0.2', `PROXY TCP4 203.0.113.7 127.0.0.1 50000 ${cluster.httpPort}\r\n`)).toMatch(/^HTTP\/1.1 400|^closed$/)
  })
})

describe('hard-stop-after: an old worker does not outlive a reload by more than the setting', () => {
  const held: ServerResponse[] = []
  const backend: Server = createServer((request, response) => (request.url === '/hold' ? held.push(response) : response.end('ok')))
  afterAll(() => {
    for (const response of held) response.end()
    backend.close()
  })

  it('a connection held across a reload is closed when the old worker is stopped, and the new worker serves', async () => {
    await new Promise<void>((resolve) => backend.listen(0, '127.0.0.1', resolve))
    const root = await makeTempDir('hapedge-hard-stop')
    const conf = join(root, 'conf')
    const port = await freePort()
    const { layout } = fullRebuild(
      [
        configMap({ 'hard-stop-after': '1s' }),
        service('web'),
        endpointSlice('web', ['127.0.0.1'], [{ port: (backend.address() as AddressInfo).port }]),
        ingress({ name: 'edge', rules: [{ host: HOST, paths: [{ service: 'web' }] }] }),
      ],
      { httpBind: `127.0.0.1:${port}`, httpsBind: `127.0.0.1:${await freePort()}` },
    )
    await writeRendered(conf, layout)
    const options = { masterSocket: join(root, 'master.sock'), configs: [conf], cwd: conf, binary: haproxyBinary, timeoutMs: 15_000 }
    const haproxy = await startMasterWorker(options, [port])
    try {
      const hold = request(`http://127.0.0.1:${port}/hold`, { headers: { host: HOST }, timeoutMs: 60_000 }).then(
        (answer) => `answered ${answer.status}`,
        (error: Error) => `closed: ${error.message}`,
      )
      await eventually('the held request to reach the backend', () => held.length === 1)
      const { previous } = await masterReload(options)
      const workers = async () => parseShowProc(await haproxySocket({ path: options.masterSocket }).run('show proc')).workers.map((worker) => worker.pid)
      // The old worker keeps the held request until hard-stop-after stops it: then the request is cut, never answered.
      await eventually('the old worker to be stopped', async () => !(await workers()).some((pid) => previous.includes(pid)), 20_000)
      expect(await hold).toMatch(/^closed|^answered 50\d/)
      expect(held[0]!.writableEnded).toBe(false)
      expect(await request(`http://127.0.0.1:${port}/`, { headers: { host: HOST } })).toMatchObject({ status: 200, body: 'ok' })
    } finally {
      await haproxy.stop()
      await removeTempDir(root)
    }
  }, 60_000)
})

describe('close-spread-time: an old worker closes its idle keep-alive connections over the window, then leaves', () => {
  const backend: Server = createServer((_request, response) => response.end('ok'))
  afterAll(() => backend.close())

  /** A keep-alive connection that has had one answer and waits idle; `closed` resolves with the time the server closed it. */
  const idleConnection = (port: number) =>
    new Promise<{ closed: Promise<number> }>((resolve, reject) => {
      const socket = connectTcp(port, '127.0.0.1')
      const closed = new Promise<number>((done) => socket.once('close', () => done(performance.now())))
      socket.once('error', reject)
      socket.once('connect', () => socket.write(`GET / HTTP/1.1\r\nhost: ${HOST}\r\n\r\n`))
      let answer = ''
      socket.on('data', (chunk) => {
        answer += chunk.toString()
        if (answer.endsWith('ok')) resolve({ closed })
      })
    })

  it('closes them spread over close-spread-time, long before their keep-alive timeout, and the old worker leaves before hard-stop-after', async () => {
    await new Promise<void>((resolve) => backend.listen(0, '127.0.0.1', resolve))
    const root = await makeTempDir('hapedge-close-spread')
    const conf = join(root, 'conf')
    const port = await freePort()
    const spreadMs = 3_000
    const { layout } = fullRebuild(
      [
        // Idle connections would otherwise stay for timeout http-keep-alive (timeout-http-request), and the worker until hard-stop-after.
        configMap({ 'close-spread-time': `${spreadMs}ms`, 'timeout-http-request': '120s', 'hard-stop-after': '120s' }),
        service('web'),
        endpointSlice('web', ['127.0.0.1'], [{ port: (backend.address() as AddressInfo).port }]),
        ingress({ name: 'edge', rules: [{ host: HOST, paths: [{ service: 'web' }] }] }),
      ],
      { httpBind: `127.0.0.1:${port}`, httpsBind: `127.0.0.1:${await freePort()}` },
    )
    await writeRendered(conf, layout)
    const options = { masterSocket: join(root, 'master.sock'), configs: [conf], cwd: conf, binary: haproxyBinary, timeoutMs: 30_000 }
    const haproxy = await startMasterWorker(options, [port])
    try {
      const idle = await Promise.all(Array.from({ length: 20 }, () => idleConnection(port)))
      const { previous } = await masterReload(options)
      const workers = async () => parseShowProc(await haproxySocket({ path: options.masterSocket }).run('show proc')).workers.map((worker) => worker.pid)
      await eventually('the old worker to leave', async () => !(await workers()).some((pid) => previous.includes(pid)), 60_000)
      // The old worker left once its last connection was closed: every one was, by the server, well before the keep-alive timeout.
      const closedAt = await Promise.all(idle.map(({ closed }) => closed))
      // Not all at once, as without the setting: spread over the window (20 closings at random in it are never within a quarter).
      expect(Math.max(...closedAt) - Math.min(...closedAt)).toBeGreaterThan(spreadMs / 4)
      expect(await request(`http://127.0.0.1:${port}/`, { headers: { host: HOST } })).toMatchObject({ status: 200, body: 'ok' })
    } finally {
      await haproxy.stop()
      await removeTempDir(root)
    }
  }, 90_000)
})
