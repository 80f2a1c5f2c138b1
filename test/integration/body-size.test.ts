import { createServer, request, type Server } from 'node:http'
import { request as get } from '../support/http-client.ts'
import { connect as connectHttp2 } from 'node:http2'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { STREAMED_BODY_CHECKED } from '../../core/model/body-size-notices.ts'
import { FILES } from '../../core/render/files.ts'
import { makeCertificate } from '../support/certificates.ts'
import { configMap, endpointSlice, ingress, service, tlsSecret } from '../support/objects.ts'
import { makeTempDir, removeTempDir } from '../support/temp-dir.ts'
import { serveCluster } from './serve-cluster.ts'
import { modified, startRuntimeCluster, type RuntimeCluster } from './runtime-cluster.ts'

/**
 * proxy-body-size through the real HAProxy, against a loopback backend that answers with the
 * number of body bytes it received: 413 above a route's limit for a body with Content-Length (on
 * its headers alone) and for one streamed without it (chunked), and a changed limit applied at runtime.
 */

const LIMIT = 1000
/** Larger than HAProxy's request buffer (tune.bufsize 16384), so it can never be held whole. */
const BEYOND_BUFFER = 64 * 1024
/** A limit above what HAProxy buffers of a streamed body (so warned of), below BEYOND_BUFFER. */
const LARGE = 4 * STREAMED_BODY_CHECKED

function countingBackend(): Promise<Server & { requests: number }> {
  const server = Object.assign(
    createServer((req, res) => {
      server.requests += 1
      let received = 0
      req.on('data', (chunk: Buffer) => (received += chunk.length))
      req.on('end', () => res.end(`received ${received}`))
    }),
    { requests: 0 },
  )
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)))
}

interface Upload {
  /** How the body is sent: with Content-Length, or chunked in pieces of `piece` bytes. */
  chunked?: boolean
  piece?: number
  /** With Content-Length: send the headers alone, never the body. */
  headersOnly?: boolean
}

/** A POST of `size` bytes through node:http (which sets Host as given); its answer, even when HAProxy answers before the body is all sent. */
function upload(port: number, host: string, path: string, size: number, { chunked = false, piece = 500, headersOnly = false }: Upload = {}) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const headers = chunked ? { host, 'transfer-encoding': 'chunked' } : { host, 'content-length': String(size) }
    const req = request({ host: '127.0.0.1', port, path, method: 'POST', headers, agent: false })
    let answered = false
    req.on('response', (res) => {
      answered = true
      let body = ''
      res.on('data', (data) => (body += data))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }))
      res.on('error', reject)
    })
    // Writes after an early answer may meet a closed connection: only an error before the answer fails.
    req.on('error', (error) => answered || reject(error))
    req.setTimeout(10_000, () => req.destroy(new Error(`no answer to a ${size}-byte upload to ${host}${path}`)))
    if (headersOnly) return req.flushHeaders()
    let sent = 0
    const next = () => {
      if (answered || req.destroyed) return
      if (sent >= size) return void req.end()
      const bytes = Math.min(piece, size - sent)
      sent += bytes
      req.write(Buffer.alloc(bytes, 'x'), () => setTimeout(next, chunked ? 1 : 0))
    }
    next()
  })
}

describe('proxy-body-size', () => {
  let backend: Server & { requests: number }
  let cluster: RuntimeCluster
  const site = (name: string, path: string, annotations: Record<string, string>) =>
    ingress({ name, annotations, rules: [{ host: 'upload.test', paths: [{ path, pathType: 'Prefix', service: 'echo' }] }] })
  const limited = (size: string) => site('limited', '/', { 'nginx.ingress.kubernetes.io/proxy-body-size': size })
  const post = (path: string, size: number, options?: Upload) => upload(cluster.httpPort, 'upload.test', path, size, options)

  beforeAll(async () => {
    backend = await countingBackend()
    const { port } = backend.address() as AddressInfo
    cluster = await startRuntimeCluster(
      [
        service('echo'),
        endpointSlice('echo', [{ address: '127.0.0.1', ready: true }], [{ port }]),
        limited(String(LIMIT)),
        site('unlimited', '/unlimited', { 'haproxy-ingress.github.io/proxy-body-size': 'unlimited' }),
        site('large', '/large', { 'hapedge.io/proxy-body-size': String(LARGE) }),
        // Another Ingress's longer path on the limited host has no limit of its own: the host's limit is not its.
        site('plain', '/plain', {}),
      ],
      'hapedge-body-size',
    )
  })

  afterAll(async () => {
    await cluster?.stop()
    backend?.closeAllConnections()
    await new Promise((resolve) => backend?.close(resolve))
  })

  it('answers 413 to a Content-Length above the limit on the headers alone, and passes one at the limit whole', async () => {
    const before = backend.requests
    expect(await post('/x', LIMIT + 1, { headersOnly: true })).toMatchObject({ status: 413 })
    expect(backend.requests).toBe(before)
    expect(await post('/x', LIMIT)).toEqual({ status: 200, body: `received ${LIMIT}` })
  })

  it('answers 413 to a chunked body streamed past the limit, within the buffer and beyond it, and passes one within it whole', async () => {
    const before = backend.requests
    expect(await post('/x', LIMIT + 1, { chunked: true, piece: 100 })).toMatchObject({ status: 413 })
    expect(await post('/x', BEYOND_BUFFER, { chunked: true, piece: 1000 })).toMatchObject({ status: 413 })
    expect(backend.requests).toBe(before)
    expect(await post('/x', LIMIT, { chunked: true, piece: 100 })).toEqual({ status: 200, body: `received ${LIMIT}` })
  })

  it('passes a request without a body on a limited route at once, any body on a route whose limit is unlimited, and on a route of the host that sets none', async () => {
    // A request without a body never waits for one: BODY_WAIT is longer than this client waits for an answer.
    const bodiless = await get(`http://127.0.0.1:${cluster.httpPort}/x`, { headers: { host: 'upload.test' } })
    expect({ status: bodiless.status, body: bodiless.body }).toEqual({ status: 200, body: 'received 0' })
    expect(await post('/unlimited', BEYOND_BUFFER)).toEqual({ status: 200, body: `received ${BEYOND_BUFFER}` })
    expect(await post('/plain', BEYOND_BUFFER, { chunked: true })).toEqual({ status: 200, body: `received ${BEYOND_BUFFER}` })
  })

  it('checks a streamed body only as far as HAProxy buffers it: one beyond the buffer passes a limit above the buffer (the warned case)', async () => {
    expect(await post('/large', LARGE + 1, { headersOnly: true })).toMatchObject({ status: 413 })
    expect(await post('/large', BEYOND_BUFFER, { chunked: true, piece: 1000 })).toEqual({ status: 200, body: `received ${BEYOND_BUFFER}` })
  })

  it('applies a changed limit with a map edit, without a reload: the same worker then passes what it refused', async () => {
    const workers = await cluster.workers()
    const { applied } = await cluster.atRuntime([modified(limited('4k'))])
    expect(applied.maps.map(({ name }) => name)).toEqual([FILES.bodySizePrefixMap])
    expect(await post('/x', 2 * LIMIT)).toEqual({ status: 200, body: `received ${2 * LIMIT}` })
    expect(await post('/x', 4097, { headersOnly: true })).toMatchObject({ status: 413 })
    expect(await cluster.workers()).toEqual(workers)
  })
})

describe('the settings ConfigMap’s proxy-body-size', () => {
  it('limits the routes whose Ingress sets no limit, not those that set one or ask for none', async () => {
    const backend = await countingBackend()
    const { port } = backend.address() as AddressInfo
    const site = (name: string, annotations: Record<string, string>) =>
      ingress({ name, annotations, rules: [{ host: `${name}.test`, paths: [{ path: '/', pathType: 'Prefix', service: 'echo' }] }] })
    const cluster = await serveCluster([
      service('echo'),
      endpointSlice('echo', [{ address: '127.0.0.1', ready: true }], [{ port }]),
      configMap({ 'proxy-body-size': String(LIMIT) }),
      site('plain', {}),
      site('own', { 'nginx.ingress.kubernetes.io/proxy-body-size': String(4 * LIMIT) }),
      site('open', { 'nginx.ingress.kubernetes.io/proxy-body-size': '0' }),
    ])
    try {
      const post = (host: string, size: number, options?: Upload) => upload(cluster.httpPort, host, '/', size, options)
      expect(await post('plain.test', LIMIT + 1, { headersOnly: true })).toMatchObject({ status: 413 })
      expect(await post('plain.test', LIMIT + 1, { chunked: true, piece: 100 })).toMatchObject({ status: 413 })
      expect(await post('plain.test', LIMIT)).toEqual({ status: 200, body: `received ${LIMIT}` })
      expect(await post('own.test', 2 * LIMIT)).toEqual({ status: 200, body: `received ${2 * LIMIT}` })
      expect(await post('open.test', BEYOND_BUFFER)).toEqual({ status: 200, body: `received ${BEYOND_BUFFER}` })
    } finally {
      await cluster.stop()
      backend.closeAllConnections()
      await new Promise((resolve) => backend.close(resolve))
    }
  })
})

/** A POST of `size` bytes over HTTP/2 (TLS, ALPN h2) in DATA frames of `piece` bytes, with or without content-length; its answer. */
function uploadHttp2(port: number, host: string, size: number, { withLength = false, piece = 1000 } = {}) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const client = connectHttp2(`https://127.0.0.1:${port}`, { servername: host, rejectUnauthorized: false })
    client.on('error', reject)
    const headers: Record<string, string> = { ':method': 'POST', ':path': '/', ':authority': host }
    if (withLength) headers['content-length'] = String(size)
    const stream = client.request(headers)
    let status = 0
    let body = ''
    stream.on('response', (answer) => (status = Number(answer[':status'])))
    stream.on('data', (data) => (body += data))
    stream.on('end', () => {
      client.close()
      resolve({ status, body })
    })
    // Frames after an early answer may meet a reset stream: only an error before the answer fails.
    stream.on('error', (error) => (status ? resolve({ status, body }) : reject(error)))
    let sent = 0
    const next = () => {
      if (status || stream.destroyed) return
      if (sent >= size) return void stream.end()
      const bytes = Math.min(piece, size - sent)
      sent += bytes
      stream.write(Buffer.alloc(bytes, 'x'), () => setTimeout(next, 1))
    }
    next()
  })
}

describe('proxy-body-size over HTTP/2', () => {
  it('answers 413 above the limit whether the body announces its length or not: HAProxy’s body size over HTTP/2 is only what it holds', async () => {
    const backend = await countingBackend()
    const { port } = backend.address() as AddressInfo
    const dir = await makeTempDir('hapedge-body-size-h2')
    const cert = await makeCertificate({ dir, hosts: ['upload.test'], name: 'upload' })
    const cluster = await serveCluster([
      service('echo'),
      endpointSlice('echo', [{ address: '127.0.0.1', ready: true }], [{ port }]),
      tlsSecret('upload-tls', cert.certPem, cert.keyPem),
      ingress({
        name: 'upload',
        annotations: { 'nginx.ingress.kubernetes.io/proxy-body-size': String(4 * LIMIT), 'nginx.ingress.kubernetes.io/ssl-redirect': 'false' },
        rules: [{ host: 'upload.test', paths: [{ path: '/', pathType: 'Prefix', service: 'echo' }] }],
        tls: [{ hosts: ['upload.test'], secretName: 'upload-tls' }],
      }),
    ])
    try {
      const post = (size: number, withLength: boolean) => uploadHttp2(cluster.httpsPort, 'upload.test', size, { withLength })
      expect(await post(4 * LIMIT + 1, true)).toMatchObject({ status: 413 })
      expect(await post(4 * LIMIT + 1, false)).toMatchObject({ status: 413 })
      expect(await post(4 * LIMIT, true)).toEqual({ status: 200, body: `received ${4 * LIMIT}` })
      expect(await post(4 * LIMIT, false)).toEqual({ status: 200, body: `received ${4 * LIMIT}` })
    } finally {
      await cluster.stop()
      await removeTempDir(dir)
      backend.closeAllConnections()
      await new Promise((resolve) => backend.close(resolve))
    }
  })
})
