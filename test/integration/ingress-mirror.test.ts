import { once } from 'node:events'
import { connect, createServer, type Server, type Socket } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MIRROR_SKIPPED, MOST_MIRRORS_IN_FLIGHT } from '../../core/render/mirror-lua.ts'
import { eventually } from '../support/eventually.ts'
import { ingress } from '../support/objects.ts'
import { closedPort, closeRecorder, type Recorder, startRecorder } from '../support/recorder.ts'
import { answeredBy, serveCluster, type ServedCluster } from './serve-cluster.ts'
import { startServices, type ServiceBackends } from './service-backends.ts'

/**
 * ingress-nginx's mirror-target, mirror-host and mirror-request-body through the real HAProxy and
 * the Lua it ships: the client is answered by the Ingress's Service while a recording server on
 * loopback, named by URL, receives a copy (polled for: a task of its own sends it).
 */

const NGINX = 'nginx.ingress.kubernetes.io/'

/** An Ingress of its own host, serving `app` with these mirror annotations (without the prefix). */
const mirrored = (name: string, annotations: Record<string, string>) =>
  ingress({
    name,
    annotations: Object.fromEntries(Object.entries({ 'ssl-redirect': 'false', ...annotations }).map(([key, value]) => [NGINX + key, value])),
    rules: [{ host: `${name}.mirror.test`, paths: [{ service: 'app' }] }],
  })

describe('mirror-target through HAProxy', () => {
  let services: ServiceBackends
  let shadow: Recorder
  let cluster: ServedCluster

  beforeAll(async () => {
    services = await startServices(['app'])
    shadow = await startRecorder()
    const origin = `http://127.0.0.1:${shadow.port}`
    cluster = await serveCluster([
      ...services.objects,
      mirrored('uri', { 'mirror-target': `${origin}$request_uri`, 'mirror-host': 'shadow.test' }),
      mirrored('plain', { 'mirror-target': `${origin}/mirror` }),
      mirrored('bodiless', { 'mirror-target': `${origin}/bodiless$request_uri`, 'mirror-request-body': 'off' }),
      mirrored('down', { 'mirror-target': `http://127.0.0.1:${await closedPort()}$request_uri` }),
      mirrored('client-host', { 'mirror-target': 'http://$request_uri' }),
      mirrored('host-only', { 'mirror-host': 'shadow.test' }),
      mirrored('rewritten', { 'mirror-target': `${origin}/rewritten$request_uri`, 'rewrite-target': '/inside' }),
    ])
  })

  afterAll(async () => {
    await cluster?.stop()
    await services?.close()
    await closeRecorder(shadow?.server)
  })

  const copyOf = (url: string) => eventually(`the mirror's copy of ${url}`, () => shadow.copies.find((copy) => copy.url === url))

  it('answers the client from the Service and sends the URL a copy: $request_uri is its path and query, mirror-host its Host', async () => {
    const response = await cluster.get('uri.mirror.test', '/page?q=1', { headers: { 'x-client': 'c1' } })
    expect([response.status, answeredBy(response)]).toEqual([200, 'app'])
    const copy = await copyOf('/page?q=1')
    expect([copy.method, copy.headers.host, copy.headers['x-client'], copy.headers['x-forwarded-for']]).toEqual(['GET', 'shadow.test', 'c1', '127.0.0.1'])

    const posted = await cluster.get('uri.mirror.test', '/form', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'a=1&b=2' })
    expect(answeredBy(posted)).toBe('app')
    const form = await copyOf('/form')
    expect([form.method, form.body, form.headers['content-length']]).toEqual(['POST', 'a=1&b=2', '7'])
  })

  it("keeps a URL's own path and adds the request's query, as NGINX's proxy_pass does; the Host is the URL's host unless mirror-host", async () => {
    expect(answeredBy(await cluster.get('plain.mirror.test', '/some/page?q=2'))).toBe('app')
    const copy = await copyOf('/mirror?q=2')
    expect(copy.headers.host).toBe('127.0.0.1')
  })

  it('sends the copy without the body when mirror-request-body is off', async () => {
    const posted = await cluster.get('bodiless.mirror.test', '/upload', { method: 'POST', body: 'secret=1' })
    expect(answeredBy(posted)).toBe('app')
    const copy = await copyOf('/bodiless/upload')
    expect([copy.method, copy.body, copy.headers['content-length']]).toEqual(['POST', '', undefined])
  })

  it('sends the copy without waiting for the body when mirror-request-body is off', async () => {
    const client = connect(cluster.httpPort, '127.0.0.1')
    await once(client, 'connect')
    let answer = ''
    client.on('data', (chunk: Buffer) => void (answer += chunk.toString()))
    // The headers and half of the declared body: the rest is sent only once the copy came.
    client.write('POST /slow HTTP/1.1\r\nhost: bodiless.mirror.test\r\ncontent-length: 8\r\nconnection: close\r\n\r\nsecr')
    const copy = await copyOf('/bodiless/slow')
    client.end('et=1')
    await once(client, 'close')
    expect([copy.method, copy.body]).toEqual(['POST', ''])
    expect(answer).toMatch(/^HTTP\/1\.1 200 /)
  })

  it('sends $request_uri as the client sent it, before a rewrite-target changes the path the Service is sent, as NGINX does', async () => {
    expect(answeredBy(await cluster.get('rewritten.mirror.test', '/outside?q=3'))).toBe('app')
    await copyOf('/rewritten/outside?q=3')
  })

  it('serves the client when the mirror is down', async () => {
    const answers = await Promise.all([1, 2, 3].map((n) => cluster.get('down.mirror.test', `/${n}`, { method: 'POST', body: `body ${n}` })))
    expect(answers.map((answer) => [answer.status, answeredBy(answer)])).toEqual([1, 2, 3].map(() => [200, 'app']))
  })

  it('refuses a target whose host the client would choose, and companions without a target, saying so; the routes are served', async () => {
    expect(cluster.model.warnings).toContainEqual({
      object: 'Ingress default/client-host',
      annotation: `${NGINX}mirror-target`,
      reason: expect.stringMatching(/\$request_uri may only follow the URL's host/),
    })
    expect(cluster.model.warnings).toContainEqual({
      object: 'Ingress default/host-only',
      annotation: `${NGINX}mirror-host`,
      reason: 'ignored without mirror-target',
    })
    expect(answeredBy(await cluster.get('client-host.mirror.test', '/evil.example.com/x'))).toBe('app')
    await cluster.get('uri.mirror.test', '/after-refused')
    await copyOf('/after-refused')
    expect(shadow.copies.map((copy) => copy.url)).not.toContain('/evil.example.com/x')
  })
})

describe('mirror copies in flight through HAProxy', () => {
  let services: ServiceBackends
  let cluster: ServedCluster
  /** A mirror that takes connections and never answers: its copies stay in flight for their timeout. */
  let silent: Server
  const held = new Set<Socket>()

  beforeAll(async () => {
    services = await startServices(['app'])
    silent = createServer((socket) => {
      held.add(socket)
      socket.on('error', () => held.delete(socket))
    })
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve))
    const { port } = silent.address() as { port: number }
    cluster = await serveCluster([...services.objects, mirrored('silent', { 'mirror-target': `http://127.0.0.1:${port}$request_uri` })])
  })

  afterAll(async () => {
    await cluster?.stop()
    await services?.close()
    for (const socket of held) socket.destroy()
    await new Promise((resolve) => silent?.close(resolve))
  })

  it('sends no copy while MOST_MIRRORS_IN_FLIGHT are unanswered, and says so in HAProxy’s log', async () => {
    // Copies a mirror never answers stay in flight for their timeout: the requests after the most are served uncopied.
    for (let sent = 0; sent <= MOST_MIRRORS_IN_FLIGHT; sent += 32) {
      const batch = Array.from({ length: Math.min(32, MOST_MIRRORS_IN_FLIGHT + 1 - sent) }, (_, n) => cluster.get('silent.mirror.test', `/${sent + n}`))
      expect((await Promise.all(batch)).map(answeredBy)).toEqual(batch.map(() => 'app'))
    }
    const told = await eventually(
      'HAProxy’s log on copies in flight',
      () => cluster.output().match(new RegExp(`${MIRROR_SKIPPED} \\(${MOST_MIRRORS_IN_FLIGHT} copies already in flight\\): .*`))?.[0],
    )
    expect(told).toMatch(/: 1 since start, the last for http:\/\/127\.0\.0\.1:\d+\$request_uri;/)
  })
})
