import { createServer, type Server } from 'node:http'
import { connect, type Socket } from 'node:net'
import type { AddressInfo } from 'node:net'
import { setTimeout as sleep } from 'node:timers/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FILES } from '../../core/render/files.ts'
import { endpointSlice, ingress, service } from '../support/objects.ts'
import { serveCluster, type ServedCluster } from './serve-cluster.ts'

/**
 * Per-route timeouts through the real HAProxy, against one loopback backend that answers `/slow`
 * only after longer than the shortest timeout here, and upgrades any request asking for it into
 * an echo tunnel. The default `timeout server` (the settings ConfigMap's) is far longer.
 */

/** The short timeout the Ingresses ask for, and how long the backend keeps a request or a tunnel waiting: well beyond it. */
const SHORT_SECONDS = 1
const WAIT_MS = SHORT_SECONDS * 1000 * 2.5

/** The backend's upgraded sockets, which `server.close` neither tracks nor ends. */
const tunnels = new Set<Socket>()

function slowBackend(): Promise<Server> {
  const server = createServer((request, response) => {
    const answer = () => response.end(`answered ${request.url}`)
    if (request.url?.endsWith('/slow')) setTimeout(answer, WAIT_MS)
    else answer()
  })
  server.on('upgrade', (_request, socket: Socket) => {
    tunnels.add(socket)
    socket.write('HTTP/1.1 101 Switching Protocols\r\nUpgrade: echo\r\nConnection: Upgrade\r\n\r\n')
    socket.on('data', (data) => socket.write(data))
    socket.on('error', () => {})
  })
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)))
}

/** An upgraded connection through HAProxy: its first bytes after the 101, what it echoes, and whether HAProxy has closed it. */
async function openTunnel(port: number, host: string) {
  const socket = connect(port, '127.0.0.1')
  let received = ''
  let closed = false
  socket.on('data', (data) => {
    received += data.toString()
  })
  socket.on('close', () => {
    closed = true
  })
  socket.on('error', () => {})
  socket.write(`GET /tunnel HTTP/1.1\r\nHost: ${host}\r\nConnection: Upgrade\r\nUpgrade: echo\r\n\r\n`)
  await sleep(200)
  return {
    upgraded: () => received.startsWith('HTTP/1.1 101'),
    closed: () => closed,
    /** Sends a line and waits a moment for its echo. */
    echoes: async (line: string) => {
      if (closed) return false
      socket.write(line)
      await sleep(200)
      return received.endsWith(line)
    },
    close: () => socket.destroy(),
  }
}

describe('per-route timeouts', () => {
  let backend: Server
  let cluster: ServedCluster

  beforeAll(async () => {
    backend = await slowBackend()
    const { port } = backend.address() as AddressInfo
    const site = (name: string, host: string, annotations: Record<string, string> = {}) =>
      ingress({ name, annotations, rules: [{ host, paths: [{ path: '/', pathType: 'Prefix', service: 'slow' }] }] })
    cluster = await serveCluster([
      service('slow'),
      endpointSlice('slow', [{ address: '127.0.0.1', ready: true }], [{ port }]),
      site('default', 'default.test'),
      site('nginx-read', 'read.test', { 'nginx.ingress.kubernetes.io/proxy-read-timeout': String(SHORT_SECONDS) }),
      site('haproxytech', 'server.test', { 'haproxy.org/timeout-server': `${SHORT_SECONDS}s` }),
      site('tunnel', 'tunnel.test', {
        'haproxy-ingress.github.io/timeout-server': `${SHORT_SECONDS}s`,
        'haproxy-ingress.github.io/timeout-tunnel': '1h',
      }),
      site('connect', 'connect.test', { 'nginx.ingress.kubernetes.io/proxy-connect-timeout': String(SHORT_SECONDS) }),
      // Another Ingress's longer path on a short-timeout host is served with the default.
      ingress({ name: 'longer', rules: [{ host: 'read.test', paths: [{ path: '/patient', pathType: 'Prefix', service: 'slow' }] }] }),
    ])
  })

  afterAll(async () => {
    await cluster?.stop()
    for (const socket of tunnels) socket.destroy()
    backend?.closeAllConnections()
    await new Promise((resolve) => backend?.close(resolve))
  })

  it('a route with proxy-read-timeout or timeout-server answers 504 when the Service is slower; the default and other routes wait for it', async () => {
    expect((await cluster.get('read.test', '/slow')).status).toBe(504)
    expect((await cluster.get('server.test', '/slow')).status).toBe(504)
    expect((await cluster.get('read.test', '/fast')).status).toBe(200)
    expect((await cluster.get('default.test', '/slow')).status).toBe(200)
    expect((await cluster.get('read.test', '/patient/slow')).status).toBe(200)
  })

  it('timeout-tunnel keeps an upgraded connection open past the route’s timeout-server; without it the tunnel closes', async () => {
    const kept = await openTunnel(cluster.httpPort, 'tunnel.test')
    const cut = await openTunnel(cluster.httpPort, 'server.test')
    try {
      expect([kept.upgraded(), cut.upgraded()]).toEqual([true, true])
      await sleep(WAIT_MS)
      expect({ closed: kept.closed(), echoes: await kept.echoes('still here\n') }).toEqual({ closed: false, echoes: true })
      expect(cut.closed()).toBe(true)
    } finally {
      kept.close()
      cut.close()
    }
  })

  it('proxy-connect-timeout serves the route from a backend of its own that HAProxy loads with that timeout connect; the Service’s own keeps the default', async () => {
    expect((await cluster.get('connect.test', '/fast')).status).toBe(200)
    const route = cluster.model.hosts.get('connect.test')!.routes[0]!
    const sections = cluster.files.get(FILES.backends)!.split('\n\n')
    expect(sections.find((section) => section.startsWith(`backend ${route.backendName}\n`))).toContain(`    timeout connect ${SHORT_SECONDS * 1000}\n`)
    expect(cluster.model.hosts.get('default.test')!.routes[0]!.backendName).not.toBe(route.backendName)
  })

  it('honours the timeout keys asked for here without warnings', () => {
    expect(cluster.model.warnings).toEqual([])
  })
})
