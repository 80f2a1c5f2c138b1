import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FILES } from '../../core/render/files.ts'
import { MIRROR_BODY_BOUND, MIRROR_SKIPPED } from '../../core/render/mirror-lua.ts'
import { eventually } from '../support/eventually.ts'
import { closedPort, closeRecorder as close, type Recorder, startRecorder } from '../support/recorder.ts'
import { gateway, gatewayClass, httpRoute } from '../support/gateway-objects.ts'
import { request } from '../support/http-client.ts'
import { endpointSlice, service } from '../support/objects.ts'
import { modified, startRuntimeCluster, type RuntimeCluster } from './runtime-cluster.ts'
import { answeredBy, serveCluster, type ServedCluster } from './serve-cluster.ts'
import { startServices, type ServiceBackends } from './service-backends.ts'

/**
 * RequestMirror through the real HAProxy and the Lua it ships: the client is answered by the
 * route's Service while a recording mirror on loopback receives a copy (polled for: the copy is
 * sent by a task of its own, after the client's request has gone on), and a mirror that is down
 * changes nothing for the client.
 */

const prefix = (value: string) => [{ type: 'PathPrefix', value }]
const mirrorTo = (name: string, more: Record<string, unknown> = {}) => ({ type: 'RequestMirror', requestMirror: { backendRef: { name, port: 80 }, ...more } })
const recorderObjects = (name: string, port: number, address = '127.0.0.1') => [
  service(name),
  endpointSlice(name, [{ address, ready: true }], [{ port }], { addressType: address.includes(':') ? 'IPv6' : 'IPv4' }),
]
const HOST = 'mirror.gw.test'

describe('RequestMirror through HAProxy', () => {
  let services: ServiceBackends
  let shadow: Recorder
  let shadow6: Recorder
  let cluster: ServedCluster

  beforeAll(async () => {
    services = await startServices(['app'])
    shadow = await startRecorder()
    shadow6 = await startRecorder('::1')
    cluster = await serveCluster([
      ...services.objects,
      ...recorderObjects('shadow', shadow.port),
      ...recorderObjects('shadow-down', await closedPort()),
      ...recorderObjects('shadow6', shadow6.port, '::1'),
      service('shadow-unready'),
      endpointSlice('shadow-unready', [{ address: '127.0.0.1', ready: false }], [{ port: shadow.port }]),
      gatewayClass(),
      gateway('edge', [{ name: 'http', hostname: '*.gw.test' }]),
      httpRoute({
        name: 'mirrored',
        hostnames: [HOST],
        rules: [
          {
            matches: prefix('/copy'),
            filters: [{ type: 'RequestHeaderModifier', requestHeaderModifier: { set: [{ name: 'X-Team', value: 'blue' }] } }, mirrorTo('shadow')],
            backends: [{ service: 'app' }],
          },
          { matches: prefix('/never'), filters: [mirrorTo('shadow', { percent: 0 })], backends: [{ service: 'app' }] },
          { matches: prefix('/down'), filters: [mirrorTo('shadow-down')], backends: [{ service: 'app' }] },
          { matches: prefix('/elsewhere'), filters: [mirrorTo('absent')], backends: [{ service: 'app' }] },
          { matches: prefix('/six'), filters: [mirrorTo('shadow6')], backends: [{ service: 'app' }] },
          { matches: prefix('/unready'), filters: [mirrorTo('shadow-unready')], backends: [{ service: 'app' }] },
          { backends: [{ service: 'app' }] },
        ],
      }),
    ])
  })

  afterAll(async () => {
    await cluster?.stop()
    await services?.close()
    await close(shadow?.server)
    await close(shadow6?.server)
  })

  const copyOf = (url: string) => eventually(`the mirror's copy of ${url}`, () => shadow.copies.find((copy) => copy.url === url))
  /** HAProxy's log line telling of copies not sent for a reason. */
  const toldOf = (reason: string) =>
    eventually(`HAProxy's log on ${reason}`, () => cluster.output().match(new RegExp(`${MIRROR_SKIPPED} \\(${reason}\\): .*`))?.[0])

  it('answers the client from the route’s Service and sends the mirror a copy as the Service is sent it', async () => {
    const response = await cluster.get(HOST, '/copy/page?q=1', { headers: { 'x-client': 'c1', 'x-team': 'red' } })
    expect([response.status, answeredBy(response)]).toEqual([200, 'app'])
    expect(response.json().headers['x-team']).toBe('blue')
    const copy = await copyOf('/copy/page?q=1')
    expect([copy.method, copy.headers.host, copy.headers['x-client'], copy.headers['x-team'], copy.headers['x-forwarded-for']]).toEqual([
      'GET',
      HOST,
      'c1',
      'blue',
      '127.0.0.1',
    ])
    expect(response.json().headers['x-forwarded-for']).toBe('127.0.0.1')
  })

  it('copies a body it holds whole, and sends a request with a larger one on uncopied', async () => {
    const posted = await cluster.get(HOST, '/copy/form', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'a=1&b=2' })
    expect(answeredBy(posted)).toBe('app')
    const copy = await copyOf('/copy/form')
    expect([copy.method, copy.body, copy.headers['content-length'], copy.headers['content-type']]).toEqual(['POST', 'a=1&b=2', '7', 'text/plain'])
    const large = 'x'.repeat(MIRROR_BODY_BOUND * 4)
    const big = await cluster.get(HOST, '/copy/large', { method: 'PUT', body: large })
    expect([big.status, answeredBy(big)]).toEqual([200, 'app'])
    // Copies are sent in the order their requests came: once a later one is in, the large one was never sent.
    await cluster.get(HOST, '/copy/after-large')
    await copyOf('/copy/after-large')
    expect(shadow.copies.map((one) => one.url)).not.toContain('/copy/large')
    expect(await toldOf(`a body over ${MIRROR_BODY_BOUND} bytes, or not whole`)).toMatch(/: 1 since start, the last for default_shadow_80;/)
  })

  it('sends no copy to a mirror without a ready endpoint, and says so in HAProxy’s log', async () => {
    expect(answeredBy(await cluster.get(HOST, '/unready/x'))).toBe('app')
    expect(await toldOf('no ready endpoint')).toMatch(/: 1 since start, the last for default_shadow-unready_80;/)
  })

  it('copies no request of a route whose share is 0, and serves its client', async () => {
    expect(answeredBy(await cluster.get(HOST, '/never/x'))).toBe('app')
    await cluster.get(HOST, '/copy/after-never')
    await copyOf('/copy/after-never')
    expect(shadow.copies.map((one) => one.url)).not.toContain('/never/x')
  })

  it('reaches a mirror endpoint of an IPv6 address', async () => {
    expect(answeredBy(await cluster.get(HOST, '/six/x'))).toBe('app')
    await eventually('the IPv6 mirror’s copy', () => shadow6.copies.find((copy) => copy.url === '/six/x'))
  })

  it('serves the client when the mirror is down', async () => {
    const answers = await Promise.all([1, 2, 3].map((n) => cluster.get(HOST, `/down/${n}`, { method: 'POST', body: `body ${n}` })))
    expect(answers.map((answer) => [answer.status, answeredBy(answer)])).toEqual([1, 2, 3].map(() => [200, 'app']))
  })

  it('serves a route whose mirror does not resolve without it, and says so', async () => {
    expect(answeredBy(await cluster.get(HOST, '/elsewhere/x'))).toBe('app')
    const reasons = new Map(cluster.model.rejections.map((rejection) => [rejection.object, rejection.reason]))
    expect(reasons.get('HTTPRoute default/mirrored')).toBe(
      'spec.rules[3].filters[0].requestMirror.backendRef: Service default/absent does not exist (BackendNotFound); nothing is mirrored to it',
    )
  })
})

describe('RequestMirror changes at runtime', () => {
  let services: ServiceBackends
  let first: Recorder
  let second: Recorder
  let cluster: RuntimeCluster

  const site = (mirror: string, percent: number) =>
    httpRoute({ name: 'site', hostnames: ['site.gw.test'], rules: [{ filters: [mirrorTo(mirror, { percent })], backends: [{ service: 'app' }] }] })
  const get = (path: string) => request(`http://127.0.0.1:${cluster.httpPort}${path}`, { headers: { host: 'site.gw.test' } })

  beforeAll(async () => {
    services = await startServices(['app'])
    first = await startRecorder()
    second = await startRecorder()
    // Both Services have backends from the start: the second is another route's mirror.
    const other = httpRoute({ name: 'other', hostnames: ['other.gw.test'], rules: [{ filters: [mirrorTo('second')], backends: [{ service: 'app' }] }] })
    cluster = await startRuntimeCluster(
      [
        ...services.objects,
        ...recorderObjects('first', first.port),
        ...recorderObjects('second', second.port),
        gatewayClass(),
        gateway('edge', [{ name: 'http' }]),
        other,
        site('first', 100),
      ],
      'hapedge-gateway-mirror',
    )
  })

  afterAll(async () => {
    await cluster?.stop()
    await services?.close()
    await close(first?.server)
    await close(second?.server)
  })

  it('sends the copies to another mirror Service after a map edit, without a reload', async () => {
    expect((await get('/one')).status).toBe(200)
    await eventually('the first mirror’s copy', () => first.copies.find((copy) => copy.url === '/one'))
    const before = await cluster.workers()
    const { applied } = await cluster.atRuntime([modified(site('second', 100))])
    expect(new Set(applied.maps.map(({ name }) => name))).toEqual(new Set([FILES.mirrorPrefixMap]))
    expect((await get('/two')).status).toBe(200)
    await eventually('the second mirror’s copy', () => second.copies.find((copy) => copy.url === '/two'))
    expect(first.copies.map((copy) => copy.url)).not.toContain('/two')
    expect(await cluster.workers()).toEqual(before)
  })
})
