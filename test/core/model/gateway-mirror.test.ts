import { describe, expect, it } from 'vitest'
import { LiveCluster } from '../../../core/incremental/live-cluster.ts'
import { FILES } from '../../../core/render/files.ts'
import { fullRebuild } from '../../../core/render/full-rebuild.ts'
import { gatewayApiStatus } from '../../../core/gateway-status/gateway-api-status.ts'
import { gateway, gatewayClass, grpcRoute, httpRoute, type RuleSpec } from '../../support/gateway-objects.ts'
import { endpointSlice, service } from '../../support/objects.ts'

/** RequestMirror read as a route's mirrors: their share, their Service's backend, what is reported, and what a change costs. */

const objects = [
  gatewayClass(),
  gateway('edge', [{ name: 'web', hostname: '*.example.com' }]),
  ...['a', 'm', 'n'].flatMap((name, i) => [service(name, [{ port: 80 }]), endpointSlice(name, [`10.0.0.${i + 1}`], [{ port: 8080 }])]),
]
const mirrorTo = (name: string, more: object = {}) => ({ type: 'RequestMirror', requestMirror: { backendRef: { name, port: 80 }, ...more } })
const routeWith = (rule: Partial<RuleSpec>) => httpRoute({ name: 'r', hostnames: ['shop.example.com'], rules: [{ backends: [{ service: 'a' }], ...rule }] })
const added = (object: unknown) => ({ type: 'ADDED' as const, object: object as Record<string, unknown> })
const modified = (object: unknown) => ({ type: 'MODIFIED' as const, object: object as Record<string, unknown> })

function rebuilt(rule: Partial<RuleSpec>) {
  const { model, files } = fullRebuild([...objects, routeWith(rule)])
  return {
    mirrors: model.hosts.get('shop.example.com')?.routes[0]?.mirrors,
    reason: model.rejections.find((rejection) => rejection.object === 'HTTPRoute default/r')?.reason,
    backends: [...model.backends.keys()],
    map: files.get(FILES.mirrorPrefixMap),
  }
}

describe('RequestMirror', () => {
  it('copies every request, percent of them or a fraction, each to its Service’s backend, which HAProxy then has', () => {
    const { mirrors, reason, backends, map } = rebuilt({
      filters: [mirrorTo('m'), mirrorTo('n', { percent: 25 }), mirrorTo('a', { fraction: { numerator: 1, denominator: 3 } })],
    })
    expect(reason).toBeUndefined()
    expect(mirrors?.map(({ backendName, numerator, denominator }) => [backendName, numerator, denominator])).toEqual([
      ['default_m_80', 1, 1],
      ['default_n_80', 25, 100],
      ['default_a_80', 1, 3],
    ])
    expect(backends).toEqual(expect.arrayContaining(['default_m_80', 'default_n_80']))
    expect(map).toBe('shop.example.com/ default_m_80|1|1,default_n_80|25|100,default_a_80|1|3\n')
    // A fraction's denominator is 100 unless given, as the specification says.
    expect(rebuilt({ filters: [mirrorTo('m', { fraction: { numerator: 5 } })] }).mirrors?.[0]).toMatchObject({ numerator: 5, denominator: 100 })
  })

  it('serves the route without a mirror whose Service does not resolve, and says so in its ResolvedRefs', () => {
    const { mirrors, reason } = rebuilt({
      filters: [mirrorTo('ghost'), { ...mirrorTo('m'), requestMirror: { backendRef: { name: 'm', namespace: 'shop', port: 80 } } }],
    })
    expect(mirrors).toBeUndefined()
    expect(reason).toBe(
      'spec.rules[0].filters[0].requestMirror.backendRef: Service default/ghost does not exist (BackendNotFound); nothing is mirrored to it; ' +
        'spec.rules[0].filters[1].requestMirror.backendRef: no ReferenceGrant in namespace shop lets HTTPRoutes of default send to Service m (RefNotPermitted); nothing is mirrored to it',
    )
    const { state } = fullRebuild([...objects, routeWith({ filters: [mirrorTo('ghost')] })])
    const status = gatewayApiStatus(state, '2024-01-01T00:00:00Z').objects.find((object) => object.kind === 'HTTPRoute')
    const conditions = status && 'parents' in status ? status.parents[0]!.conditions : []
    expect(conditions.map(({ type, status, reason }) => `${type}/${status}/${reason}`)).toEqual([
      'Accepted/True/Accepted',
      'ResolvedRefs/False/BackendNotFound',
    ])
  })

  it('does not serve what it cannot honour as written, and says why', () => {
    const reasons = [
      { filters: [mirrorTo('m', { percent: 5, fraction: { numerator: 1 } })] },
      { filters: [mirrorTo('m', { fraction: { numerator: 3, denominator: 2 } })] },
      { filters: [{ type: 'RequestMirror', requestMirror: { backendRef: { name: 'm' } } }] },
      { filters: [{ type: 'RequestMirror' }] },
      { filters: [mirrorTo('m'), { type: 'RequestRedirect', requestRedirect: { scheme: 'https' } }], backends: [] },
    ].map((rule) => rebuilt(rule).reason)
    expect(reasons).toEqual([
      'spec.rules[0].filters[0].requestMirror: percent and fraction both given; the specification allows one; the HTTPRoute is not served',
      'spec.rules[0].filters[0].requestMirror.fraction: the numerator must not exceed the denominator; the HTTPRoute is not served',
      'spec.rules[0].filters[0].requestMirror.backendRef.port: is required for a Service; the HTTPRoute is not served',
      'spec.rules[0].filters[0].requestMirror: is required for a filter of type RequestMirror; the HTTPRoute is not served',
      'spec.rules[0].filters: RequestMirror beside a RequestRedirect is not honoured by hapedge: the rule answers the redirect itself, forwarding nothing; the HTTPRoute is not served',
    ])
  })

  it('is reported on a GRPCRoute, whose Services its HTTP/1.1 copies could not reach', () => {
    const route = grpcRoute({ name: 'g', hostnames: ['rpc.example.com'], rules: [{ backends: [{ service: 'a' }], filters: [mirrorTo('m')] }] })
    const { model } = fullRebuild([...objects, route])
    expect(model.rejections.find((rejection) => rejection.object === 'GRPCRoute default/g')?.reason).toBe(
      'spec.rules[0].filters[0]: RequestMirror is not honoured by hapedge on a GRPCRoute (its copies would be sent in HTTP/1.1); the GRPCRoute is not served',
    )
  })

  it('changes its share, or its Service for one HAProxy has a backend for, by a map edit; a mirror Service that comes serves it', () => {
    const other = httpRoute({ name: 'o', hostnames: ['other.example.com'], rules: [{ backends: [{ service: 'n' }] }] })
    const cluster = new LiveCluster()
    cluster.apply([...objects, other, routeWith({ filters: [mirrorTo('m')] })].map(added))
    const share = cluster.apply([modified(routeWith({ filters: [mirrorTo('m', { percent: 10 })] }))])
    expect([share.plan.reload, cluster.files().get(FILES.mirrorPrefixMap)]).toEqual([false, 'shop.example.com/ default_m_80|10|100\n'])
    const moved = cluster.apply([modified(routeWith({ filters: [mirrorTo('n', { percent: 10 })] }))])
    expect([moved.plan.reload, cluster.files().get(FILES.mirrorPrefixMap)]).toEqual([false, 'shop.example.com/ default_n_80|10|100\n'])
    // To a Service that does not exist yet: reported and dropped; when it comes, its backend is new (a reload) and the route mirrors to it.
    cluster.apply([modified(routeWith({ filters: [mirrorTo('late')] }))])
    expect(cluster.files().get(FILES.mirrorPrefixMap)).toBe('')
    cluster.apply([added(service('late', [{ port: 80 }])), added(endpointSlice('late', ['10.0.0.9'], [{ port: 8080 }]))])
    expect(cluster.files().get(FILES.mirrorPrefixMap)).toBe('shop.example.com/ default_late_80|1|1\n')
  })
})
