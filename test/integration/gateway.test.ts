import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { makeCertificate } from '../support/certificates.ts'
import { gateway, gatewayClass, httpRoute } from '../support/gateway-objects.ts'
import { tlsSecret } from '../support/objects.ts'
import { makeTempDir, removeTempDir } from '../support/temp-dir.ts'
import { answeredBy, serveCluster, type ServedCluster } from './serve-cluster.ts'
import { startServices, type ServiceBackends } from './service-backends.ts'

/**
 * An HTTPRoute through the real HAProxy: Exact, PathPrefix and RegularExpression matches, a path split between three
 * weighted Services, the route's hostnames intersected with its listener's, an HTTPS listener's
 * certificate, and the routes that are not attached (a sectionName no listener has, a namespace
 * the listener does not admit) not served, with their reasons.
 */

const REQUESTS = 600
/**
 * 8 points: a share's standard deviation is at most 2 points at 600 requests, so a right split
 * fails about once in 5,000 runs (5 points, 2.5 deviations, failed about one run in 30), and a
 * wrong one (the weights ignored: a third each, 17 points off the half) always.
 */
const TOLERANCE = 0.08

describe('the Gateway API through HAProxy', () => {
  let services: ServiceBackends
  let cluster: ServedCluster
  let certDir: string

  beforeAll(async () => {
    certDir = await makeTempDir('hapedge-gateway-certs')
    const certificate = await makeCertificate({ dir: certDir, hosts: ['secure.gw.test'], name: 'secure' })
    services = await startServices(['stable', 'preview', 'exact', 'secure', 'regex'])
    const team = await startServices(['stable'], 'team')
    cluster = await serveCluster([
      ...services.objects,
      ...team.objects,
      tlsSecret('secure-tls', certificate.certPem, certificate.keyPem),
      gatewayClass(),
      gateway('edge', [
        { name: 'http', hostname: '*.gw.test' },
        { name: 'shop', hostname: 'shop.gw.test' },
        { name: 'secure', protocol: 'HTTPS', hostname: 'secure.gw.test', certificate: 'secure-tls' },
      ]),
      httpRoute({
        name: 'store',
        parents: [{ name: 'edge', sectionName: 'http' }],
        // elsewhere.test is not under the listener's *.gw.test: not served.
        hostnames: ['shop.gw.test', 'api.gw.test', 'elsewhere.test'],
        rules: [
          { matches: [{ type: 'Exact', value: '/health' }], backends: [{ service: 'exact' }] },
          { matches: [{ type: 'RegularExpression', value: '/items/[0-9]+' }], backends: [{ service: 'regex' }] },
          {
            matches: [{ type: 'PathPrefix', value: '/api' }],
            backends: [
              { service: 'stable', weight: 30 },
              { service: 'preview', weight: 50 },
              { service: 'exact', weight: 20 },
            ],
          },
          { backends: [{ service: 'stable' }] },
        ],
      }),
      httpRoute({ name: 'secure', parents: [{ name: 'edge', sectionName: 'secure' }], rules: [{ backends: [{ service: 'secure' }] }] }),
      httpRoute({
        name: 'wrong-section',
        parents: [{ name: 'edge', sectionName: 'nope' }],
        hostnames: ['wrong.gw.test'],
        rules: [{ backends: [{ service: 'stable' }] }],
      }),
      httpRoute({
        name: 'foreign',
        namespace: 'team',
        parents: [{ name: 'edge', namespace: 'default', sectionName: 'http' }],
        hostnames: ['team.gw.test'],
        rules: [{ backends: [{ service: 'stable' }] }],
      }),
    ])
    await team.close()
  })

  afterAll(async () => {
    await cluster?.stop()
    await services?.close()
    if (certDir) await removeTempDir(certDir)
  })

  const get = (host: string, path: string) => cluster.get(host, path).then(answeredBy)

  it('Exact matches the whole path only; PathPrefix whole segments, the longest first', async () => {
    expect(await get('shop.gw.test', '/health')).toBe('exact')
    expect(await get('shop.gw.test', '/health/x')).toBe('stable')
    expect(await get('shop.gw.test', '/apix')).toBe('stable')
    expect(await get('shop.gw.test', '/')).toBe('stable')
  })

  it('a RegularExpression matches the whole path, before any PathPrefix', async () => {
    expect(await get('shop.gw.test', '/items/42')).toBe('regex')
    expect(await get('shop.gw.test', '/items/42/x')).toBe('stable')
    expect(await get('shop.gw.test', '/items/x')).toBe('stable')
  })

  it('splits a path between its weighted Services, per request', async () => {
    const counts = new Map<string, number>()
    for (let sent = 0; sent < REQUESTS; sent += 50) {
      const answers = await Promise.all(Array.from({ length: 50 }, () => get('api.gw.test', '/api/v1')))
      for (const answer of answers) counts.set(answer, (counts.get(answer) ?? 0) + 1)
    }
    expect([...counts.keys()].sort()).toEqual(['exact', 'preview', 'stable'])
    for (const [service, share] of [
      ['stable', 0.3],
      ['preview', 0.5],
      ['exact', 0.2],
    ] as const)
      expect(Math.abs(counts.get(service)! / REQUESTS - share)).toBeLessThan(TOLERANCE)
  })

  it('serves the hostnames the route and its listener share, not the others', async () => {
    expect(await get('api.gw.test', '/')).toBe('stable')
    expect(await get('elsewhere.test', '/')).toBe('HTTP 404')
    expect([...cluster.model.hosts.keys()].sort()).toEqual(['api.gw.test', 'secure.gw.test', 'shop.gw.test'])
  })

  it('an HTTPS listener serves its certificate by SNI, and its plain HTTP requests are redirected to HTTPS', async () => {
    expect(answeredBy(await cluster.https('secure.gw.test', '/'))).toBe('secure')
    expect((await cluster.get('secure.gw.test', '/x')).status).toBe(308)
  })

  it('a route its Gateway does not take is not served, and says why', async () => {
    expect(await get('wrong.gw.test', '/')).toBe('HTTP 404')
    expect(await get('team.gw.test', '/')).toBe('HTTP 404')
    const reasons = new Map(cluster.model.rejections.map((rejection) => [rejection.object, rejection.reason]))
    expect(reasons.get('HTTPRoute default/wrong-section')).toBe(
      'spec.parentRefs[0]: Gateway default/edge has no listener of sectionName "nope": not attached (NoMatchingParent); the HTTPRoute is not served',
    )
    expect(reasons.get('HTTPRoute team/foreign')).toBe(
      'spec.parentRefs[0]: not attached to Gateway default/edge: listener "http": allowedRoutes admits routes of namespace default only (NotAllowedByListeners); the HTTPRoute is not served',
    )
    expect([...reasons.keys()].sort()).toEqual(['HTTPRoute default/wrong-section', 'HTTPRoute team/foreign'])
  })
})
