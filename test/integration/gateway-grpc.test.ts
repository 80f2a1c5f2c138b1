import * as grpc from '@grpc/grpc-js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { gateway, gatewayClass, grpcRoute, httpRoute } from '../support/gateway-objects.ts'
import { fixtureCertificate } from '../support/fixtures.ts'
import { configMap, endpointSlice, service, tlsSecret } from '../support/objects.ts'
import { grpcCall, grpcExchange, grpcServer } from './grpc-echo.ts'
import { answeredBy, serveCluster, type ServedCluster } from './serve-cluster.ts'
import { startServices, type ServiceBackends } from './service-backends.ts'
import { gatewayApiStatus } from '../../core/gateway-status/gateway-api-status.ts'

/**
 * GRPCRoute through the real HAProxy with real gRPC calls: a client speaking h2c (prior knowledge)
 * to HAProxy's HTTP bind, HAProxy speaking HTTP/2 to gRPC servers on loopback, each answering with
 * its name: a service and method, a service alone, a method alone, a header, a split by weight
 * (each Service's answers with its backendRef's response headers), a rule whose weights are all 0, and a method no route takes.
 */

const PATHS = ['/hapedge.Echo/Say', '/hapedge.Echo/Ping', '/weighted.Echo/Say', '/other.Echo/Say', '/other.Echo/Ping', '/tagged.Echo/Say', '/tagged.Echo/Ping']
const HOST = 'grpc.gw.test'
const TLS_HOST = 'shop.example.com'
const certificate = fixtureCertificate(TLS_HOST)
const responseHeaders = (set: Record<string, string>) => ({
  type: 'ResponseHeaderModifier',
  responseHeaderModifier: { set: Object.entries(set).map(([name, value]) => ({ name, value })) },
})

describe('GRPCRoute through HAProxy', () => {
  const servers: grpc.Server[] = []
  let cluster: ServedCluster
  let web: ServiceBackends

  beforeAll(async () => {
    web = await startServices(['web'])
    const names = ['exact', 'service', 'header', 'one', 'two', 'method']
    const objects: unknown[] = []
    for (const name of names) {
      const { server, port } = await grpcServer(name, grpc.ServerCredentials.createInsecure(), PATHS)
      servers.push(server)
      objects.push(service(name), endpointSlice(name, ['127.0.0.1'], [{ port }]))
    }
    cluster = await serveCluster([
      ...objects,
      ...web.objects,
      gatewayClass(),
      tlsSecret('shop-tls', certificate.certPem, certificate.keyPem),
      gateway('edge', [
        { name: 'http', hostname: HOST },
        { name: 'https', protocol: 'HTTPS', hostname: TLS_HOST, certificate: 'shop-tls' },
      ]),
      grpcRoute({
        name: 'echo',
        rules: [
          { matches: [{ method: { service: 'hapedge.Echo', method: 'Say' } }], backends: [{ service: 'exact' }] },
          { matches: [{ method: { service: 'hapedge.Echo' } }], backends: [{ service: 'service' }] },
          { matches: [{ method: { method: 'Ping' } }], backends: [{ service: 'method' }] },
          // Every weight 0: sent to no Service, answered 500 (HTTPRouteAllBackendsWeightZero's answer, as for an HTTPRoute).
          { matches: [{ method: { service: 'drained.Echo' } }], backends: [{ service: 'one', weight: 0 }] },
          {
            matches: [{ method: { service: 'hapedge.Echo', method: 'Say' }, headers: [{ name: 'x-env', value: 'canary' }] }],
            backends: [{ service: 'header' }],
          },
          { matches: [{ method: { service: 'tagged.Echo' }, headers: [{ name: 'x-env', value: 'canary' }] }], backends: [{ service: 'header' }] },
          {
            matches: [{ method: { service: 'weighted.Echo' } }],
            filters: [responseHeaders({ 'x-route': 'echo', 'x-served-by': 'rule' })],
            backends: [
              { service: 'one', weight: 1, filters: [responseHeaders({ 'x-served-by': 'one' })] },
              { service: 'two', weight: 1, filters: [responseHeaders({ 'x-served-by': 'two' })] },
            ],
          },
        ],
      }),
      // On the GRPCRoute's listener, its wildcard over the GRPCRoute's name, and not older: served beside it (gateway-api #4598).
      httpRoute({
        name: 'web',
        hostnames: ['*.gw.test'],
        parents: [{ name: 'edge', sectionName: 'http' }],
        rules: [{ matches: [{ type: 'PathPrefix', value: '/web' }], backends: [{ service: 'web' }] }],
      }),
    ])
  })

  afterAll(async () => {
    await cluster?.stop()
    await web?.close()
    for (const server of servers) server.forceShutdown()
  })

  const call = (path: string, metadata: Record<string, string> = {}) => grpcCall(cluster.httpPort, HOST, 'hi', path, metadata)

  it('a service and method go where they are matched Exact, the service’s other methods where the service alone is', async () => {
    expect(await call('/hapedge.Echo/Say')).toBe('exact got hi')
    expect(await call('/hapedge.Echo/Ping')).toBe('service got hi')
  })

  it('a method alone takes its calls to the services no match of the service alone takes: the service’s characters rank first', async () => {
    expect(await call('/other.Echo/Ping')).toBe('method got hi')
    expect(await call('/hapedge.Echo/Ping')).toBe('service got hi')
  })

  it('a header match takes the calls that carry it, before the same method without one', async () => {
    expect(await call('/hapedge.Echo/Say', { 'x-env': 'canary' })).toBe('header got hi')
    expect(await call('/hapedge.Echo/Say', { 'x-env': 'other' })).toBe('exact got hi')
  })

  it('a service alone with header matches takes the calls that carry them before a method alone, which takes the others', async () => {
    expect(await call('/tagged.Echo/Ping', { 'x-env': 'canary' })).toBe('header got hi')
    expect(await call('/tagged.Echo/Ping')).toBe('method got hi')
    await expect(call('/tagged.Echo/Say')).rejects.toMatchObject({ code: grpc.status.UNIMPLEMENTED })
    expect(await call('/tagged.Echo/Say', { 'x-env': 'canary' })).toBe('header got hi')
  })

  it('calls are split between weighted Services, each spoken to in HTTP/2, each answer with its backendRef’s response headers after the rule’s', async () => {
    const answers = new Map<string, Record<string, string>>()
    for (let i = 0; i < 40 && answers.size < 2; i++) {
      const { reply, headers } = await grpcExchange(cluster.httpPort, HOST, 'hi', '/weighted.Echo/Say')
      answers.set(reply, headers)
    }
    const seen = [...answers].sort(([a], [b]) => a.localeCompare(b))
    expect(seen.map(([reply, headers]) => [reply, headers['x-served-by'], headers['x-route']])).toEqual([
      ['one got hi', 'one', 'echo'],
      ['two got hi', 'two', 'echo'],
    ])
  })

  it('an HTTPS listener takes gRPC over TLS, HTTP/2 chosen by ALPN', async () => {
    expect(await grpcCall(cluster.httpsPort, TLS_HOST, 'hi', '/hapedge.Echo/Say', {}, certificate.certPem)).toBe('exact got hi')
  })

  it('a method no route takes is answered as HAProxy’s 404, which the client sees as UNIMPLEMENTED', async () => {
    await expect(call('/other.Echo/Say')).rejects.toMatchObject({ code: grpc.status.UNIMPLEMENTED })
  })

  it('a service whose rule’s backendRefs all have weight 0 is answered HTTP 500, which the client sees as UNKNOWN', async () => {
    await expect(call('/drained.Echo/Say')).rejects.toMatchObject({ code: grpc.status.UNKNOWN })
  })

  it('an HTTPRoute whose wildcard covers the GRPCRoute’s name on its listener is served beside it, both accepted', async () => {
    expect(answeredBy(await cluster.get(HOST, '/web/page'))).toBe('web')
    expect(await call('/hapedge.Echo/Say')).toBe('exact got hi')
    // Only the rule whose weights are all 0 is reported (and served).
    expect(cluster.model.rejections).toEqual([
      { object: 'GRPCRoute default/echo', reason: 'spec.rules[3].backendRefs: every backendRef has weight 0; this rule answers 500' },
    ])
    const accepted = gatewayApiStatus(cluster.state, '2026-12-05T00:00:00.000Z').objects.flatMap((object) =>
      'parents' in object ? object.parents.map((parent) => `${object.kind} ${parent.conditions.find((one) => one.type === 'Accepted')?.status}`) : [],
    )
    expect(accepted.sort()).toEqual(['GRPCRoute True', 'HTTPRoute True'])
  })
})

describe('GRPCRoute through HAProxy with use-http2 off', () => {
  let server: grpc.Server | undefined
  let cluster: ServedCluster

  beforeAll(async () => {
    const echo = await grpcServer('plain', grpc.ServerCredentials.createInsecure())
    server = echo.server
    const everyCall = (name: string, hostname: string) =>
      grpcRoute({ name, hostnames: [hostname], parents: [{ name: 'edge', sectionName: name }], rules: [{ backends: [{ service: 'plain' }] }] })
    cluster = await serveCluster([
      configMap({ 'use-http2': 'false' }),
      service('plain'),
      endpointSlice('plain', ['127.0.0.1'], [{ port: echo.port }]),
      gatewayClass(),
      tlsSecret('shop-tls', certificate.certPem, certificate.keyPem),
      gateway('edge', [
        { name: 'http', hostname: HOST },
        { name: 'https', protocol: 'HTTPS', hostname: TLS_HOST, certificate: 'shop-tls' },
      ]),
      everyCall('http', HOST),
      everyCall('https', TLS_HOST),
    ])
  })

  afterAll(async () => {
    await cluster?.stop()
    server?.forceShutdown()
  })

  it('serves GRPCRoutes on HTTP (h2c with prior knowledge, whatever the setting)', async () => {
    expect(await grpcCall(cluster.httpPort, HOST, 'hi')).toBe('plain got hi')
  })

  it('reports the GRPCRoute of an HTTPS listener as not attached, since no gRPC client can call without HTTP/2 (ALPN h2)', async () => {
    expect(cluster.model.rejections.map((rejection) => rejection.object)).toEqual(['GRPCRoute default/https'])
    expect(cluster.model.hosts.has(TLS_HOST)).toBe(false)
    await expect(grpcCall(cluster.httpsPort, TLS_HOST, 'hi', '/hapedge.Echo/Say', {}, certificate.certPem)).rejects.toMatchObject({
      code: grpc.status.UNAVAILABLE,
    })
  })
})
