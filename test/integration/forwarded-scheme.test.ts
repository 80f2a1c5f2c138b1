import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { configMap, ingress } from '../support/objects.ts'
import { answeredBy, serveCluster, type ServedCluster } from './serve-cluster.ts'
import { startServices, type ServiceBackends } from './service-backends.ts'

/**
 * Behind a proxy that terminates TLS (a cloud load balancer), every request reaches HAProxy over
 * plain HTTP: the scheme the client used is the proxy's X-Forwarded-Proto, trusted only from
 * `proxy-real-ip-cidr` with `use-forwarded-headers`. Trusting the connection alone would redirect
 * an HTTPS client to HTTPS again and again.
 */

const HOST = 'shop.test'
const forced = ingress({
  name: 'shop',
  annotations: { 'nginx.ingress.kubernetes.io/force-ssl-redirect': 'true' },
  rules: [{ host: HOST, paths: [{ path: '/', service: 'site' }] }],
})
const forwarded = (proto: string) => ({ headers: { 'x-forwarded-proto': proto, 'x-forwarded-for': '203.0.113.7' } })

describe('the scheme a trusted proxy forwards', () => {
  let services: ServiceBackends
  let behindProxy: ServedCluster
  let proxyElsewhere: ServedCluster

  beforeAll(async () => {
    services = await startServices(['site'])
    behindProxy = await serveCluster([...services.objects, forced, configMap({ 'use-forwarded-headers': 'true', 'proxy-real-ip-cidr': '127.0.0.0/8' })])
    proxyElsewhere = await serveCluster([...services.objects, forced, configMap({ 'use-forwarded-headers': 'true', 'proxy-real-ip-cidr': '10.0.0.0/8' })])
  })

  afterAll(async () => {
    await Promise.all([behindProxy?.stop(), proxyElsewhere?.stop()])
    await services?.close()
  })

  it('serves a request its client made over HTTPS, and tells the Service https', async () => {
    const answer = await behindProxy.get(HOST, '/cart', forwarded('https'))
    expect(answeredBy(answer)).toBe('site')
    expect(JSON.parse(answer.body).headers['x-forwarded-proto']).toBe('https')
  })

  it('redirects a request its client made over HTTP to HTTPS on the standard port the proxy serves, not HAProxy’s bind', async () => {
    const answer = await behindProxy.get(HOST, '/cart?x=1', forwarded('HTTP'))
    expect({ status: answer.status, location: answer.headers.location }).toEqual({ status: 308, location: `https://${HOST}/cart?x=1` })
  })

  it('ignores a scheme it cannot read, and one sent by a client that is not a trusted proxy', async () => {
    for (const [cluster, proto] of [
      [behindProxy, 'gopher'],
      [proxyElsewhere, 'https'],
    ] as const) {
      const answer = await cluster.get(HOST, '/cart', forwarded(proto))
      expect({ status: answer.status, location: answer.headers.location }, `${proto}`).toEqual({
        status: 308,
        location: `https://${HOST}:${cluster.httpsPort}/cart`,
      })
    }
  })

  it('tells the Service the request as the client made it when no trusted proxy names it, whatever the client claims', async () => {
    const open = ingress({ name: 'open', rules: [{ host: 'open.test', paths: [{ path: '/', service: 'site' }] }] })
    const cluster = await serveCluster([...services.objects, open])
    try {
      const claims = { 'x-forwarded-host': 'evil.test', 'x-forwarded-port': '1', 'x-real-ip': '192.0.2.1', forwarded: 'for=192.0.2.1;proto=https' }
      const answer = await cluster.get('open.test', '/', { headers: { ...forwarded('https').headers, ...claims } })
      const { headers } = JSON.parse(answer.body) as { headers: Record<string, string | undefined> }
      expect({
        proto: headers['x-forwarded-proto'],
        host: headers['x-forwarded-host'],
        port: headers['x-forwarded-port'],
        realIp: headers['x-real-ip'],
        forwarded: headers.forwarded,
      }).toEqual({ proto: 'http', host: 'open.test', port: String(cluster.httpPort), realIp: '127.0.0.1', forwarded: undefined })
    } finally {
      await cluster.stop()
    }
  })

  it('keeps a trusted proxy’s X-Forwarded-Host, -Port and Forwarded, and names the client it forwards in X-Real-IP', async () => {
    const claims = { 'x-forwarded-host': 'shop.test', 'x-forwarded-port': '443', forwarded: 'for=203.0.113.7;proto=https' }
    const answer = await behindProxy.get(HOST, '/', { headers: { ...forwarded('https').headers, ...claims } })
    const { headers } = JSON.parse(answer.body) as { headers: Record<string, string | undefined> }
    expect([headers['x-forwarded-host'], headers['x-forwarded-port'], headers['x-real-ip'], headers.forwarded]).toEqual([
      'shop.test',
      '443',
      '203.0.113.7',
      'for=203.0.113.7;proto=https',
    ])
  })
})
