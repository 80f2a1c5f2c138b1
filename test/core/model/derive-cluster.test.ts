import { describe, expect, it } from 'vitest'
import { fullRebuild } from '../../../core/render/full-rebuild.ts'
import { configMap, endpointSlice, ingress, ingressClass, service } from '../../support/objects.ts'

const web = [service('web', [{ port: 80, name: 'http' }]), endpointSlice('web', ['10.0.0.1'], [{ port: 8080, name: 'http' }])]

describe('ingress classes', () => {
  const classed = (name: string, spec: { className?: string | null; classAnnotation?: string }) =>
    ingress({ name, ...spec, rules: [{ host: `${name}.example.com`, paths: [{ service: 'web' }] }] })

  it('serves spec.ingressClassName and the legacy annotation for this class only', () => {
    const { model } = fullRebuild([
      classed('by-field', { className: 'hapedge' }),
      classed('by-annotation', { className: null, classAnnotation: 'hapedge' }),
      classed('other-field', { className: 'nginx' }),
      classed('other-annotation', { className: null, classAnnotation: 'nginx' }),
      classed('unclassed', { className: null }),
      ...web,
    ])
    expect([...model.hosts.keys()].sort()).toEqual(['by-annotation.example.com', 'by-field.example.com'])
  })

  it('serves Ingresses without a class only when this class is the default IngressClass', () => {
    const objects = [classed('unclassed', { className: null }), ...web]
    expect(fullRebuild([...objects, ingressClass('hapedge', false)]).model.hosts.size).toBe(0)
    expect(fullRebuild([...objects, ingressClass('nginx', true)]).model.hosts.size).toBe(0)
    expect([...fullRebuild([...objects, ingressClass('hapedge', true)]).model.hosts.keys()]).toEqual(['unclassed.example.com'])
  })

  it('follows --ingress-class', () => {
    const { model } = fullRebuild([classed('a', { className: 'public' }), classed('b', { className: 'hapedge' }), ...web], { ingressClass: 'public' })
    expect([...model.hosts.keys()]).toEqual(['a.example.com'])
  })

  it('does not report malformed Ingresses of other classes', () => {
    const bad = { ...classed('bad', { className: 'nginx' }), spec: { ingressClassName: 'nginx', rules: [{ host: 'BAD HOST' }] } }
    expect(fullRebuild([bad]).model.rejections).toEqual([])
    const ours = { ...bad, spec: { ...bad.spec, ingressClassName: 'hapedge' } }
    expect(fullRebuild([ours]).model.rejections).toEqual([
      { object: 'Ingress default/bad', reason: expect.stringContaining('spec.rules[0].host: "BAD HOST" must be a DNS name') },
    ])
  })
})

describe('conflicts', () => {
  const claim = (name: string, createdAt: string, path: string, svc: string, pathType: 'Prefix' | 'Exact' = 'Prefix') =>
    ingress({ name, createdAt, rules: [{ host: 'shop.example.com', paths: [{ path, pathType, service: svc }] }] })

  it('gives a host and path to the oldest Ingress and reports the loser with the winner named', () => {
    const { model } = fullRebuild([claim('young', '2024-05-01T00:00:00Z', '/api', 'b'), claim('old', '2023-01-01T00:00:00Z', '/api/', 'a')])
    const routes = model.hosts.get('shop.example.com')!.routes
    expect(routes.map((route) => [route.match, route.path, route.backendName])).toEqual([['Prefix', '/api', 'default_a_80']])
    expect(model.rejections).toEqual([
      { object: 'Ingress default/young', reason: 'spec.rules[0].http.paths[0]: host "shop.example.com" Prefix /api is already served by Ingress default/old' },
    ])
  })

  it('breaks a creation-time tie by namespace, then name', () => {
    const same = '2024-01-01T00:00:00Z'
    const { model } = fullRebuild([claim('b', same, '/', 'from-b'), claim('a', same, '/', 'from-a')])
    expect(model.hosts.get('shop.example.com')!.routes[0]!.backendName).toBe('default_from-a_80')
    expect(model.rejections.map((rejection) => rejection.object)).toEqual(['Ingress default/b'])
  })

  it('keeps Exact and Prefix on the same path apart: they are different rules', () => {
    const { model } = fullRebuild([claim('a', '2024-01-01T00:00:00Z', '/x', 'exact', 'Exact'), claim('b', '2024-02-01T00:00:00Z', '/x', 'prefix')])
    expect(model.rejections).toEqual([])
    expect(
      model.hosts
        .get('shop.example.com')!
        .routes.map((route) => route.backendName)
        .sort(),
    ).toEqual(['default_exact_80', 'default_prefix_80'])
  })

  it('gives the cluster default backend to the oldest Ingress that sets one', () => {
    const { model } = fullRebuild([
      ingress({ name: 'late', createdAt: '2024-06-01T00:00:00Z', defaultBackend: { service: 'late' } }),
      ingress({ name: 'early', createdAt: '2024-01-01T00:00:00Z', defaultBackend: { service: 'early' } }),
    ])
    expect(model.defaultBackend).toBe('default_early_80')
    expect(model.rejections).toEqual([
      { object: 'Ingress default/late', reason: 'spec.defaultBackend: the default backend is already set by Ingress default/early' },
    ])
  })
})

describe('backends', () => {
  const route = ingress({ name: 'r', rules: [{ host: 'a.example.com', paths: [{ service: 'web', port: 'http' }] }] })

  it('takes ready endpoints from every slice of the Service, on the slice port named like the Service port', () => {
    const { model } = fullRebuild([
      route,
      service('web', [
        { port: 80, name: 'http' },
        { port: 9090, name: 'metrics' },
      ]),
      endpointSlice(
        'web',
        ['10.0.0.2', { address: '10.0.0.9', ready: false }],
        [
          { port: 8080, name: 'http' },
          { port: 9100, name: 'metrics' },
        ],
        { name: 'web-1' },
      ),
      endpointSlice(
        'web',
        ['10.0.0.1', { address: '10.0.0.3', ready: null }, { address: '10.0.0.4', ready: false, serving: true, terminating: true }],
        [{ port: 8080, name: 'http' }],
        { name: 'web-2' },
      ),
      endpointSlice('other', ['10.9.9.9'], [{ port: 8080, name: 'http' }], { name: 'other-1' }),
    ])
    const servers = model.backends.get('default_web_http')!.servers.map((server) => `${server.address}:${server.port}`)
    expect(servers).toEqual(['10.0.0.1:8080', '10.0.0.2:8080', '10.0.0.3:8080'])
  })

  it('serves an endpoint that overlapping slices both list once, as while a slice is being replaced', () => {
    const { model } = fullRebuild([
      route,
      service('web', [{ port: 80, name: 'http' }]),
      endpointSlice('web', ['10.0.0.3', '10.0.0.1', '10.0.0.1'], [{ port: 8080, name: 'http' }], { name: 'web-old' }),
      endpointSlice('web', ['10.0.0.2', '10.0.0.1', '10.0.0.3'], [{ port: 8080, name: 'http' }], { name: 'web-new' }),
    ])
    const servers = model.backends.get('default_web_http')!.servers.map((server) => `${server.address}:${server.port}`)
    expect(servers).toEqual(['10.0.0.1:8080', '10.0.0.2:8080', '10.0.0.3:8080'])
  })

  it('resolves a port by number to the Service port with that number', () => {
    const byNumber = ingress({ name: 'n', rules: [{ host: 'n.example.com', paths: [{ service: 'web', port: 9090 }] }] })
    const { model } = fullRebuild([
      byNumber,
      service('web', [
        { port: 80, name: 'http' },
        { port: 9090, name: 'metrics' },
      ]),
      endpointSlice(
        'web',
        ['10.0.0.1'],
        [
          { port: 8080, name: 'http' },
          { port: 9100, name: 'metrics' },
        ],
      ),
    ])
    expect(model.backends.get('default_web_9090')!.servers).toEqual([{ address: '10.0.0.1', port: 9100, family: 'IPv4' }])
  })

  it('leaves a backend empty (503) when the Service, its port or its endpoints are missing', () => {
    const missingPort = fullRebuild([route, service('web', [{ port: 80, name: 'other' }]), endpointSlice('web', ['10.0.0.1'], [{ port: 1, name: 'other' }])])
    expect(fullRebuild([route]).model.backends.get('default_web_http')!.servers).toEqual([])
    expect(missingPort.model.backends.get('default_web_http')!.servers).toEqual([])
    expect(fullRebuild([route, service('web', [{ port: 80, name: 'http' }])]).model.backends.get('default_web_http')!.servers).toEqual([])
  })
})

describe('settings', () => {
  it('reads the cluster ConfigMap, keeping the default for a bad value and reporting it', () => {
    const { model } = fullRebuild([configMap({ 'timeout-server': '30s', 'timeout-client': '1 minute', unknown: 'x' })])
    expect(model.settings['timeout-server']).toBe('30s')
    expect(model.settings['timeout-client']).toBe('60s')
    expect(model.rejections.map((rejection) => rejection.reason)).toEqual([
      expect.stringMatching(/^data.unknown: unknown setting/),
      expect.stringMatching(/^data\["timeout-client"\]: must be an HAProxy time/),
    ])
  })

  it('ignores ConfigMaps other than the configured one', () => {
    const { model } = fullRebuild([configMap({ 'timeout-server': 'bad' }, 'other')])
    expect(model.rejections).toEqual([])
    expect(model.settings['timeout-server']).toBe('60s')
  })
})

describe("the host table's one scan", () => {
  it("gives each host's Ingresses as its own range does, hosts that begin with another's name included", () => {
    // `a-b.…` sorts before `a.…` though `a` comes first; '' is the rules without a host; one Ingress names two hosts.
    const objects = [
      ingress({
        name: 'one',
        rules: [
          { host: 'a.example.com', paths: [{ service: 'web' }] },
          { host: 'a.example.com.au', paths: [{ service: 'web' }] },
        ],
      }),
      ingress({ name: 'two', rules: [{ host: 'a-b.example.com', paths: [{ service: 'web' }] }] }),
      ingress({ name: 'three', namespace: 'other', rules: [{ host: 'a.example.com', paths: [{ path: '/x', service: 'web' }] }] }),
      ingress({ name: 'four', rules: [{ paths: [{ service: 'web' }] }], tls: [{ hosts: ['b.example.com'] }] }),
      ...web,
    ]
    const { state } = fullRebuild(objects)
    const scanned = state.ingressesOfHosts()
    expect([...scanned.keys()]).toEqual(['', 'a-b.example.com', 'a.example.com', 'a.example.com.au', 'b.example.com'])
    for (const [host, ingresses] of scanned) expect(ingresses).toEqual(state.ingressesForHost(host))
    expect(scanned.get('a.example.com')!.map((found) => found.metadata.name)).toEqual(['one', 'three'])
  })
})
