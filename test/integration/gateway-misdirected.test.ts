import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fixtureCertificate } from '../support/fixtures.ts'
import { gateway, gatewayClass, httpRoute } from '../support/gateway-objects.ts'
import { tlsSecret } from '../support/objects.ts'
import { answeredBy, serveCluster, type ServedCluster } from './serve-cluster.ts'
import { startServices, type ServiceBackends } from './service-backends.ts'

/**
 * The specification's misdirected requests (Listener.hostname, GEP-3567) through HAProxy: on the
 * HTTPS bind, a Host that another listener serves than its connection's SNI name is answered 421,
 * a Host no listener serves 404, and a Host of the SNI's own listener is routed (a wildcard
 * listener's names of any depth are its own). A listener without hostname serves every SNI name
 * with its certificate.
 */

const LISTENERS = [
  { name: 'https', protocol: 'HTTPS', certificate: 'shared' },
  { name: 'second', protocol: 'HTTPS', hostname: 'second.example.org', certificate: 'shared' },
  { name: 'wildcard', protocol: 'HTTPS', hostname: '*.wildcard.org', certificate: 'shared' },
  { name: 'fourth', protocol: 'HTTPS', hostname: 'fourth.wildcard.org', certificate: 'shared' },
]

const ROUTES = [
  httpRoute({ name: 'r1', parents: [{ name: 'edge', sectionName: 'https' }], hostnames: ['example.org'], rules: [{ backends: [{ service: 'v1' }] }] }),
  httpRoute({ name: 'r2', parents: [{ name: 'edge', sectionName: 'second' }], rules: [{ backends: [{ service: 'v2' }] }] }),
  httpRoute({
    name: 'r3',
    parents: [{ name: 'edge', sectionName: 'wildcard' }],
    hostnames: ['third.wildcard.org'],
    rules: [{ backends: [{ service: 'v3' }] }],
  }),
]

describe('misdirected HTTPS requests through HAProxy', () => {
  let services: ServiceBackends
  let withCatchAll: ServedCluster
  let withoutCatchAll: ServedCluster

  beforeAll(async () => {
    services = await startServices(['v1', 'v2', 'v3'])
    const { certPem, keyPem } = fixtureCertificate('shop.example.com')
    const base = [...services.objects, tlsSecret('shared', certPem, keyPem), gatewayClass(), ...ROUTES]
    withCatchAll = await serveCluster([...base, gateway('edge', LISTENERS)])
    withoutCatchAll = await serveCluster([...base, gateway('edge', LISTENERS.slice(1))])
  })

  afterAll(async () => {
    await Promise.all([withCatchAll?.stop(), withoutCatchAll?.stop(), services?.close()])
  })

  it.each([
    // [SNI name, Host, answer]
    ['example.org', 'example.org', 'v1'],
    ['any.org', 'example.org', 'v1'],
    ['second.example.org', 'example.org', 'HTTP 421'],
    ['second.example.org', 'second.example.org', 'v2'],
    ['example.org', 'second.example.org', 'HTTP 421'],
    ['third.wildcard.org', 'third.wildcard.org', 'v3'],
    ['fifth.wildcard.org', 'third.wildcard.org', 'v3'],
    ['fourth.wildcard.org', 'third.wildcard.org', 'HTTP 421'],
    // A wildcard listener's name of any number of labels under it, as the Gateway API's wildcard matches.
    ['deep.fifth.wildcard.org', 'third.wildcard.org', 'v3'],
    ['deep.second.example.org', 'third.wildcard.org', 'HTTP 421'],
    ['unknown.org', 'unknown.org', 'HTTP 404'],
    ['example.org', 'unknown.org', 'HTTP 404'],
    ['second.example.org', 'unknown.org', 'HTTP 421'],
    ['third.wildcard.org', 'unknown.org', 'HTTP 421'],
  ])('with a listener without hostname: SNI %s, Host %s answers %s', async (sni, host, answer) => {
    expect(answeredBy(await withCatchAll.https(host, '/', sni))).toBe(answer)
  })

  it('without a listener without hostname, a Host no listener serves is 404 and a name no certificate claims is refused in the handshake', async () => {
    expect(answeredBy(await withoutCatchAll.https('unknown.org', '/', 'second.example.org'))).toBe('HTTP 404')
    expect(answeredBy(await withoutCatchAll.https('third.wildcard.org', '/', 'second.example.org'))).toBe('HTTP 421')
    await expect(withoutCatchAll.https('unknown.org', '/', 'unknown.org')).rejects.toThrow()
  })
})
