import { describe, expect, it } from 'vitest'
import { readObject } from '../../../core/kube/objects.ts'
import { FILES } from '../../../core/render/files.ts'
import { fullRebuild } from '../../../core/render/full-rebuild.ts'
import { gateway, gatewayClass, grpcRoute, httpRoute } from '../../support/gateway-objects.ts'
import { expectEachStepAsFullRebuild } from '../../support/steps-as-full-rebuild.ts'
import { configMap, endpointSlice, service, tlsSecret } from '../../support/objects.ts'
import { fixtureCertificate } from '../../support/fixtures.ts'
import { ClusterState } from '../../../core/model/cluster-state.ts'
import { gatewayApiStatus } from '../../../core/gateway-status/gateway-api-status.ts'

/** GRPCRoute on the HTTPRoute engine: its matches as routes on the gRPC path, its Services spoken to in HTTP/2, a change costing what it changes. */

const services = (names: string[]) => names.flatMap((name, i) => [service(name, [{ port: 80 }]), endpointSlice(name, [`10.0.0.${i + 1}`], [{ port: 8080 }])])
const edge = gateway('edge', [{ name: 'grpc', hostname: 'grpc.example.com' }])
const _modified = (object: unknown) => ({ type: 'MODIFIED' as const, object: object as Record<string, unknown> })
const routesOf = (model: ReturnType<typeof fullRebuild>['model'], host: string) =>
  model.hosts
    .get(host)
    ?.routes.map((route) => [route.match, route.path, route.backendName, route.split?.backends.map((one) => `${one.backendName}:${one.weight}`)])
const H2C = /^default_(\w+)_80_[0-9a-f]{12}$/
const certificate = fixtureCertificate('shop.example.com')
const stateOf = (objects: unknown[]) => {
  const state = new ClusterState()
  for (const object of objects) state.apply(readObject(object))
  return state
}

describe('a GRPCRoute', () => {
  const route = grpcRoute({
    name: 'echo',
    rules: [
      { matches: [{ method: { service: 'hapedge.Echo', method: 'Say' } }], backends: [{ service: 'a' }] },
      {
        matches: [{ method: { service: 'hapedge.Echo' } }],
        backends: [
          { service: 'b', weight: 1 },
          { service: 'c', weight: 3 },
        ],
      },
      {
        matches: [{ method: { method: 'Ping' } }, { method: { type: 'RegularExpression', service: 'hapedge\\.v[0-9]+\\.Echo' } }],
        backends: [{ service: 'c' }],
      },
      { backends: [{ service: 'a' }] },
    ],
  })

  it('is served as routes on /<service>/<method>: Exact, the service’s prefix, a regular expression for a method alone or RegularExpression, / without matches', () => {
    const { model } = fullRebuild([gatewayClass(), edge, route, ...services(['a', 'b', 'c'])])
    expect(model.rejections).toEqual([])
    const routes = routesOf(model, 'grpc.example.com')!
    expect(routes.map(([match, path]) => `${match} ${path}`)).toEqual([
      'Prefix /',
      'Prefix /hapedge.Echo',
      'Exact /hapedge.Echo/Say',
      'Regex ~(?:/(?:hapedge\\.v[0-9]+\\.Echo)/(?:[^\\/]+))$',
      'Regex ~(?:/[^\\/]+/Ping)$',
    ])
    // Every Service of the route, the split's too, goes to its HTTP/2 backend, not the Service's HTTP/1.1 one.
    for (const [, , backend, split] of routes) {
      expect(backend).toMatch(H2C)
      for (const one of split ?? []) expect(one).toMatch(/^default_\w+_80_[0-9a-f]{12}:\d$/)
    }
    const backends = model.backends
    expect([...backends.keys()].every((name) => H2C.test(name))).toBe(true)
    expect([...backends.values()].map((backend) => backend.upstream?.protocol)).toEqual(['GRPC', 'GRPC', 'GRPC'])
    const rendered = fullRebuild([gatewayClass(), edge, route, ...services(['a', 'b', 'c'])]).files.get(FILES.backends)!
    const servers = rendered.split('\n').filter((line) => /^\s*(server|default-server|server-template) /.test(line))
    expect(servers.length).toBeGreaterThan(0)
    expect(servers.filter((line) => !line.includes(' proto h2'))).toEqual([])
  })

  it('whose rule’s backendRefs all have weight 0 answers 500 as an HTTPRoute’s does, Accepted with its refs resolved', () => {
    const zero = grpcRoute({ name: 'zero', rules: [{ matches: [{ method: { service: 'hapedge.Echo' } }], backends: [{ service: 'a', weight: 0 }] }] })
    const objects = [gatewayClass(), edge, zero, ...services(['a'])]
    const { model } = fullRebuild(objects)
    expect(routesOf(model, 'grpc.example.com')).toEqual([['Prefix', '/hapedge.Echo', 'hapedge-weightless', undefined]])
    expect(model.rejections).toEqual([
      { object: 'GRPCRoute default/zero', reason: 'spec.rules[0].backendRefs: every backendRef has weight 0; this rule answers 500' },
    ])
    const status = gatewayApiStatus(stateOf(objects), '2026-01-01T00:00:00Z').objects.find((object) => object.kind === 'GRPCRoute')
    const conditions = status && 'parents' in status ? status.parents[0]!.conditions : []
    expect(conditions.map(({ type, status }) => `${type} ${status}`)).toEqual(['Accepted True', 'ResolvedRefs True'])
  })

  it('matches headers as an HTTPRoute does, and reports what it does not serve with the field path, then is not served', () => {
    const headers = grpcRoute({
      name: 'headers',
      rules: [
        { matches: [{ method: { service: 'hapedge.Echo', method: 'Say' }, headers: [{ name: 'version', value: 'two' }] }], backends: [{ service: 'b' }] },
      ],
    })
    const served = fullRebuild([gatewayClass(), edge, route, headers, ...services(['a', 'b', 'c'])])
    expect(served.model.rejections).toEqual([])
    const say = served.model.hosts.get('grpc.example.com')?.routes.find((one) => one.path === '/hapedge.Echo/Say')
    expect(say?.chain?.entries.map((entry) => entry.conditions)).toEqual([{ values: [{ dimension: 'hversion', exact: 'two' }] }, undefined])
    const refused = grpcRoute({
      name: 'refused',
      rules: [
        { matches: [{ method: { method: 'Say' }, headers: [{ name: 'version', value: 'two' }] }], backends: [{ service: 'b' }] },
        { matches: [{ method: { type: 'Prefix', service: 'x' } }, { method: { service: 'not a service' } }], backends: [{ service: 'b' }] },
        {
          filters: [{ type: 'URLRewrite', urlRewrite: { hostname: 'x.test' } }],
          backends: [{ service: 'b', filters: [{ type: 'URLRewrite', urlRewrite: { hostname: 'y.test' } }] }],
        },
      ],
    })
    const { model } = fullRebuild([gatewayClass(), edge, refused, ...services(['b'])])
    expect(model.hosts.get('grpc.example.com')).toBeUndefined()
    expect(model.rejections.map((rejection) => rejection.reason.split('; '))).toEqual([
      [
        'spec.rules[2].filters[0].type: "URLRewrite" is not a GRPCRoute filter',
        'spec.rules[0].matches[0]: a method match without a service, or of type RegularExpression, beside header matches is not honoured by hapedge',
        'spec.rules[1].matches[0].method.type: "Prefix" is not honoured by hapedge (Exact and RegularExpression are)',
        'spec.rules[1].matches[1].method.service: "not a service" is not a gRPC service name',
        'spec.rules[2].backendRefs[0].filters[0]: URLRewrite is not honoured by hapedge on a backendRef (RequestHeaderModifier and ResponseHeaderModifier are)',
        'the GRPCRoute is not served',
      ],
    ])
  })

  it('attaches only to listeners that take GRPCRoutes, and reads its ReferenceGrants as from GRPCRoute', () => {
    const httpOnly = gateway('edge', [{ name: 'grpc', hostname: 'grpc.example.com', kinds: ['HTTPRoute'] }])
    const { model } = fullRebuild([gatewayClass(), httpOnly, route, ...services(['a', 'b', 'c'])])
    expect(model.hosts.size).toBe(0)
    expect(model.rejections[0]!.reason).toContain('allowedRoutes.kinds does not list GRPCRoute (NotAllowedByListeners)')
    expect(readObject(grpcRoute({ name: 'bad', rules: [{ backends: [{ service: 'a', weight: -1 }] }] }))).toMatchObject({
      status: 'invalid',
      issues: [{ path: 'spec.rules[0].backendRefs[0].weight' }],
    })
  })

  it('leaves to a match of a service alone its calls, where a method alone matches them too: the service’s characters rank first, incrementally as a full rebuild says', () => {
    const method = grpcRoute({ name: 'method', rules: [{ matches: [{ method: { method: 'Ping' } }], backends: [{ service: 'a' }] }] })
    const serviceAlone = (...names: string[]) =>
      grpcRoute({ name: 'service', rules: [{ matches: names.map((name) => ({ method: { service: name } })), backends: [{ service: 'b' }] }] })
    const regexLines = (objects: unknown[]) =>
      fullRebuild([gatewayClass(), edge, ...services(['a', 'b']), ...objects])
        .files.get(FILES.pathRegexMap)!
        .split('\n')
        .filter(Boolean)
    expect(regexLines([method])).toEqual(['^grpc\\.example\\.com(?#9982)(?:(?:/[^\\/]+/Ping)$) grpc.example.com~(?:/[^\\/]+/Ping)$'])
    expect(regexLines([method, serviceAlone('b.Echo', 'a.Echo')])).toEqual([
      '^grpc\\.example\\.com(?#9982)(?!/(?:a\\.Echo|b\\.Echo)/)(?:(?:/[^\\/]+/Ping)$) grpc.example.com~(?:/[^\\/]+/Ping)$',
    ])
    expectEachStepAsFullRebuild([
      [gatewayClass(), edge, ...services(['a', 'b']), method],
      [serviceAlone('a.Echo')],
      [serviceAlone('a.Echo', 'b.Echo')],
      [grpcRoute({ name: 'service', rules: [{ matches: [{ method: { service: 'a.Echo', method: 'Say' } }], backends: [{ service: 'b' }] }] })],
    ])
  })

  it('puts a service matched alone with header matches before a method alone, which takes the service’s calls its headers miss, incrementally as a full rebuild says', () => {
    const method = grpcRoute({ name: 'method', rules: [{ matches: [{ method: { method: 'Ping' } }], backends: [{ service: 'a' }] }] })
    const tagged = (value: string) =>
      grpcRoute({
        name: 'tagged',
        rules: [{ matches: [{ method: { service: 'a.Echo' }, headers: [{ name: 'x-env', value }] }], backends: [{ service: 'b' }] }],
      })
    const built = fullRebuild([gatewayClass(), edge, ...services(['a', 'b']), method, tagged('canary')])
    expect(built.model.rejections).toEqual([])
    expect(built.files.get(FILES.pathRegexMap)!.split('\n').filter(Boolean)).toEqual([
      '^grpc\\.example\\.com(?#9982)(?!/(?:a\\.Echo)/)(?:(?:/[^\\/]+/Ping)$) grpc.example.com~(?:/[^\\/]+/Ping)$',
    ])
    const head = built.model.hosts.get('grpc.example.com')?.routes.find((one) => one.chain && one.path === '/a.Echo')
    // The header match, then the method alone on the path, then nothing: the chain's id answers 404 (no shorter prefix).
    expect(head?.chain?.entries.map((entry) => entry.conditions)).toEqual([
      { values: [{ dimension: 'hx-env', exact: 'canary' }] },
      { values: [{ dimension: 'p', search: '(?:/[^\\/]+/Ping)$' }] },
    ])
    const regex = built.files.get(FILES.conditionRegexMap)!.split('\n').filter(Boolean)
    expect(regex).toEqual(['^grpc\\.example\\.com\\?0P/a\\.Echo\\|p\\|1\\|(?:/[^\\/]+/Ping)$ 2'])
    // The GRPCRoute with a service's header match stores the path's frontend rules, so a method alone that comes is a map edit.
    const frontend = built.files.get(FILES.frontend)!
    expect(frontend).toContain('http-request set-var(txn.condraw) path if { var(txn.condfree) -m found }')
    expect(fullRebuild([gatewayClass(), edge, ...services(['a', 'b']), tagged('canary')]).files.get(FILES.frontend)).toBe(frontend)
    expectEachStepAsFullRebuild([
      [gatewayClass(), edge, ...services(['a', 'b']), tagged('canary')],
      [method],
      [tagged('blue')],
      [grpcRoute({ name: 'tagged', rules: [{ matches: [{ method: { service: 'a.Echo' } }], backends: [{ service: 'b' }] }] })],
      [tagged('green')],
    ])
  })

  it('is not served on HTTPS while use-http2 is off (gRPC needs HTTP/2): NotAllowedByListeners, the listener’s supportedKinds without it; on HTTP it is', () => {
    const secure = gateway('edge', [
      { name: 'grpc', hostname: 'grpc.example.com' },
      { name: 'tls', protocol: 'HTTPS', hostname: 'tls.example.com', certificate: 'tls' },
      { name: 'listed', protocol: 'HTTPS', hostname: 'listed.example.com', certificate: 'tls', kinds: ['GRPCRoute'] },
    ])
    const on = (sectionName: string, hostname: string) =>
      grpcRoute({ name: sectionName, hostnames: [hostname], parents: [{ name: 'edge', sectionName }], rules: [{ backends: [{ service: 'a' }] }] })
    const routes = [on('grpc', 'grpc.example.com'), on('tls', 'tls.example.com'), on('listed', 'listed.example.com')]
    const objects = [gatewayClass(), secure, tlsSecret('tls', certificate.certPem, certificate.keyPem), ...routes, ...services(['a'])]
    const off = configMap({ 'use-http2': 'false' })
    expect([...fullRebuild(objects).model.hosts.keys()].sort()).toEqual(['grpc.example.com', 'listed.example.com', 'tls.example.com'])
    const { model } = fullRebuild([...objects, off])
    expect([...model.hosts.keys()]).toEqual(['grpc.example.com'])
    const refusal =
      'GRPCRoute is not served on HTTPS while settings use-http2 is false: gRPC clients need HTTP/2, which the HTTPS bind does not offer (NotAllowedByListeners)'
    expect(model.rejections.map(({ object, reason }) => [object, reason])).toEqual([
      ['GRPCRoute default/listed', `spec.parentRefs[0]: not attached to Gateway default/edge: listener "listed": ${refusal}; the GRPCRoute is not served`],
      ['GRPCRoute default/tls', `spec.parentRefs[0]: not attached to Gateway default/edge: listener "tls": ${refusal}; the GRPCRoute is not served`],
      [
        'Gateway default/edge',
        'spec.listeners[2].allowedRoutes.kinds: GRPCRoute not served by hapedge on HTTPS while settings use-http2 is false (HTTPRoute are)',
      ],
    ])
    const status = gatewayApiStatus(stateOf([...objects, off]), '2026-12-05T00:00:00.000Z').objects
    const edge = status.find((object) => object.kind === 'Gateway')
    expect(edge?.kind === 'Gateway' && edge.status.listeners.map((listener) => [listener.name, listener.supportedKinds.map(({ kind }) => kind)])).toEqual([
      ['grpc', ['HTTPRoute', 'GRPCRoute']],
      ['tls', ['HTTPRoute']],
      ['listed', []],
    ])
    const tls = status.find((object) => object.kind === 'GRPCRoute' && object.name === 'tls')
    expect(tls?.kind === 'GRPCRoute' && tls.parents.map((parent) => parent.conditions.find(({ type }) => type === 'Accepted')?.reason)).toEqual([
      'NotAllowedByListeners',
    ])
    expectEachStepAsFullRebuild([objects, [off], [configMap({})]])
  })

  it('follows its Gateway, class, controller setting and an HTTPRoute beside it, incrementally as a full rebuild says', () => {
    const steps: unknown[][] = [
      [...services(['a', 'b', 'c']), route],
      [gatewayClass(), edge],
      [
        httpRoute({
          name: 'web',
          hostnames: ['grpc.example.com'],
          rules: [{ matches: [{ type: 'PathPrefix', value: '/web' }], backends: [{ service: 'a' }] }],
        }),
      ],
      [
        grpcRoute({
          name: 'echo',
          rules: [
            {
              matches: [{ method: { service: 'hapedge.Echo' } }],
              backends: [
                { service: 'b', weight: 2 },
                { service: 'c', weight: 0 },
              ],
            },
          ],
        }),
      ],
      [configMap({ 'gateway-controller': 'example.com/other' })],
      [configMap({})],
      [gatewayClass('hapedge', 'example.com/other')],
    ]
    expectEachStepAsFullRebuild(steps)
  })
})
