import { describe, expect, it } from 'vitest'
import { LiveCluster } from '../../../core/incremental/live-cluster.ts'
import { readObject } from '../../../core/kube/objects.ts'
import { fullRebuild } from '../../../core/render/full-rebuild.ts'
import { gateway, gatewayClass, httpRoute, referenceGrant } from '../../support/gateway-objects.ts'
import { FILES } from '../../../core/render/files.ts'
import { fixtureCertificate } from '../../support/fixtures.ts'
import { expectEachStepAsFullRebuild } from '../../support/steps-as-full-rebuild.ts'
import { configMap, endpointSlice, ingress, service, tlsSecret } from '../../support/objects.ts'

/** The Gateway API on the Ingress engine: which HTTPRoutes are served where, what is reported, and that a change costs what it changes. */

const services = (names: string[], namespace = 'default') =>
  names.flatMap((name, i) => [service(name, [{ port: 80 }], namespace), endpointSlice(name, [`10.0.0.${i + 1}`], [{ port: 8080 }], { namespace })])
const edge = gateway('edge', [
  { name: 'web', hostname: '*.example.com' },
  { name: 'shop', hostname: 'shop.example.com' },
])
const added = (object: unknown) => ({ type: 'ADDED' as const, object: object as Record<string, unknown> })
const modified = (object: unknown) => ({ type: 'MODIFIED' as const, object: object as Record<string, unknown> })
const deleted = (object: unknown) => ({ type: 'DELETED' as const, object: object as Record<string, unknown> })

const routesOf = (model: ReturnType<typeof fullRebuild>['model'], host: string) =>
  model.hosts
    .get(host)
    ?.routes.map((route) => [route.match, route.path, route.backendName, route.owner, route.split?.backends.map((one) => `${one.backendName}:${one.weight}`)])

describe('reading the Gateway API', () => {
  it('reads GatewayClass, Gateway, HTTPRoute and ReferenceGrant, and names the field of a malformed one', () => {
    for (const object of [gatewayClass(), edge, httpRoute({ name: 'r', rules: [{ backends: [{ service: 'a' }] }] }), referenceGrant('g', 'default', 'other')])
      expect(readObject(object).status).toBe('object')
    const bad = httpRoute({ name: 'r', rules: [{ backends: [{ service: 'a', weight: -1 }] }] })
    expect(readObject(bad)).toMatchObject({ status: 'invalid', issues: [{ path: 'spec.rules[0].backendRefs[0].weight', message: 'must be 0 to 1000000' }] })
    expect(readObject({ ...edge, apiVersion: 'gateway.networking.k8s.io/v1beta1' }).status).toBe('skipped')
  })
})

describe('an HTTPRoute', () => {
  it('is served as routes of the Ingress model: Exact and PathPrefix, weighted Services split, hostnames intersected with the listener', () => {
    const route = httpRoute({
      name: 'store',
      hostnames: ['shop.example.com', 'other.test'],
      rules: [
        { matches: [{ type: 'Exact', value: '/health' }], backends: [{ service: 'a' }] },
        {
          matches: [{ type: 'PathPrefix', value: '/api/' }],
          backends: [
            { service: 'a', weight: 30 },
            { service: 'b', weight: 50 },
            { service: 'c', weight: 20 },
          ],
        },
      ],
    })
    const { model } = fullRebuild([gatewayClass(), edge, route, ...services(['a', 'b', 'c'])])
    expect(model.rejections).toEqual([])
    expect([...model.hosts.keys()]).toEqual(['shop.example.com'])
    expect(routesOf(model, 'shop.example.com')).toEqual([
      ['Prefix', '/api', 'default_a_80', 'HTTPRoute default/store', ['default_a_80:30', 'default_b_80:50', 'default_c_80:20']],
      ['Exact', '/health', 'default_a_80', 'HTTPRoute default/store', undefined],
    ])
    expect([...model.canaryRules.values()]).toEqual([['split']])
  })

  it('a route naming no hostname takes its listener’s; an unattached one is not served, with the reason', () => {
    const objects = [
      gatewayClass(),
      edge,
      ...services(['a']),
      ...services(['a'], 'team'),
      httpRoute({ name: 'plain', parents: [{ name: 'edge', sectionName: 'shop' }], rules: [{ backends: [{ service: 'a' }] }] }),
      httpRoute({ name: 'wrong-section', parents: [{ name: 'edge', sectionName: 'nope' }], rules: [{ backends: [{ service: 'a' }] }] }),
      httpRoute({ name: 'elsewhere', namespace: 'team', parents: [{ name: 'edge', namespace: 'default' }], rules: [{ backends: [{ service: 'a' }] }] }),
    ]
    const { model } = fullRebuild(objects)
    expect(routesOf(model, 'shop.example.com')).toEqual([['Prefix', '/', 'default_a_80', 'HTTPRoute default/plain', undefined]])
    expect([...model.hosts.keys()]).toEqual(['shop.example.com'])
    expect(model.rejections).toEqual([
      {
        object: 'HTTPRoute default/wrong-section',
        reason: 'spec.parentRefs[0]: Gateway default/edge has no listener of sectionName "nope": not attached (NoMatchingParent); the HTTPRoute is not served',
      },
      {
        object: 'HTTPRoute team/elsewhere',
        reason: expect.stringMatching(
          /^spec\.parentRefs\[0\]: not attached to Gateway default\/edge: listener "web": allowedRoutes admits routes of namespace default only \(NotAllowedByListeners\).*; the HTTPRoute is not served$/,
        ),
      },
    ])
  })

  it('what hapedge does not honour is reported with its field, and the route is not served at all rather than served otherwise', () => {
    const route = httpRoute({
      name: 'fancy',
      hostnames: ['shop.example.com'],
      rules: [
        { matches: [{ value: '/ok' }], backends: [{ service: 'a' }] },
        { matches: [{ type: 'RegularExpression', value: '/x(?=y)' }], backends: [{ service: 'a' }] },
        {
          matches: [{ value: '/h', headers: [{ name: 'x y', value: '1' }] }],
          backends: [{ service: 'a' }],
          filters: [{ type: 'ExtensionRef', extensionRef: { group: 'example.com', kind: 'Filter', name: 'x' } }],
        },
        { backends: [{ service: 'a', weight: 0 }] },
      ],
    })
    const { model } = fullRebuild([gatewayClass(), edge, route, ...services(['a', 'b', 'c'])])
    expect(model.hosts.size).toBe(0)
    expect(model.rejections).toEqual([
      {
        object: 'HTTPRoute default/fancy',
        reason: [
          'spec.rules[1].matches[0].path.value: the regular expression path "/x(?=y)" is not served: the regular expression has a lookahead at position 3, which hapedge does not read',
          'spec.rules[2].filters[0]: ExtensionRef is not honoured by hapedge (it has no extension filters)',
          'spec.rules[2].matches[0].headers[0].name: "x y" is not served: hapedge matches names of letters, digits, "-", "_" or "."',
          'spec.rules[3].backendRefs: every backendRef has weight 0; this rule answers 500',
          'the HTTPRoute is not served',
        ].join('; '),
      },
    ])
  })

  it('a Service of another namespace needs a ReferenceGrant there; a Gateway of another controller’s class is not ours to serve or report', () => {
    const cross = httpRoute({ name: 'cross', hostnames: ['shop.example.com'], rules: [{ backends: [{ service: 'a', namespace: 'team' }] }] })
    const without = fullRebuild([gatewayClass(), edge, cross, ...services(['a'], 'team')]).model
    // Served, as the specification asks, the rule answering 500 and reported.
    expect(routesOf(without, 'shop.example.com')).toEqual([['Prefix', '/', 'hapedge-unresolved', 'HTTPRoute default/cross', undefined]])
    expect(without.rejections[0]!.reason).toContain(
      'no ReferenceGrant in namespace team lets HTTPRoutes of default send to Service a (RefNotPermitted); this rule answers 500',
    )
    expect(without.rejections[0]!.reason).not.toContain('not served')
    const granted = fullRebuild([gatewayClass(), edge, cross, referenceGrant('let', 'team', 'default'), ...services(['a'], 'team')]).model
    expect(routesOf(granted, 'shop.example.com')).toEqual([['Prefix', '/', 'team_a_80', 'HTTPRoute default/cross', undefined]])
    const foreign = fullRebuild([gatewayClass('hapedge', 'example.com/other'), edge, cross, ...services(['a'], 'team')]).model
    expect([foreign.hosts.size, foreign.rejections]).toEqual([0, []])
    // The cluster's setting names the controller.
    const named = fullRebuild([
      gatewayClass('hapedge', 'example.com/other'),
      configMap({ 'gateway-controller': 'example.com/other' }),
      edge,
      cross,
      referenceGrant('let', 'team', 'default'),
      ...services(['a'], 'team'),
    ]).model
    expect(named.hosts.size).toBe(1)
  })

  it('a backendRef that does not resolve answers 500 for its share of the rule, by weight, and the rest is served; a Service that does not exist is one', () => {
    const route = httpRoute({
      name: 'half',
      hostnames: ['shop.example.com'],
      rules: [
        { matches: [{ value: '/ghost' }], backends: [{ service: 'ghost' }] },
        {
          matches: [{ value: '/half' }],
          backends: [
            { service: 'ghost', weight: 1 },
            { service: 'a', weight: 3 },
            { service: 'a', namespace: 'team', weight: 2 },
          ],
        },
        { matches: [{ value: '/gone' }], backends: [{ service: 'a' }, { service: 'ghost', weight: 0 }] },
        // A rule that redirects sends nothing to its backendRefs: reported, and its redirect served.
        {
          matches: [{ value: '/moved' }],
          backends: [{ service: 'ghost' }],
          filters: [{ type: 'RequestRedirect', requestRedirect: { hostname: 'www.example.com' } }],
        },
      ],
    })
    const { model } = fullRebuild([gatewayClass(), edge, route, ...services(['a'])])
    expect(routesOf(model, 'shop.example.com')).toEqual([
      ['Prefix', '/ghost', 'hapedge-unresolved', 'HTTPRoute default/half', undefined],
      ['Prefix', '/gone', 'default_a_80', 'HTTPRoute default/half', undefined],
      ['Prefix', '/half', 'default_a_80', 'HTTPRoute default/half', ['hapedge-unresolved:1', 'default_a_80:3', 'hapedge-unresolved:2']],
      ['Prefix', '/moved', 'hapedge-redirect', 'HTTPRoute default/half', undefined],
    ])
    // No backend for a Service that does not exist: its requests never reach HAProxy's 503.
    expect([...model.backends.keys()]).toEqual(['default_a_80'])
    expect(model.rejections).toEqual([
      {
        object: 'HTTPRoute default/half',
        reason: [
          'spec.rules[0].backendRefs[0]: Service default/ghost does not exist (BackendNotFound); this rule answers 500',
          "spec.rules[1].backendRefs[0]: Service default/ghost does not exist (BackendNotFound); its share of this rule's requests (weight 1 of 6) answers 500",
          "spec.rules[1].backendRefs[2]: no ReferenceGrant in namespace team lets HTTPRoutes of default send to Service a (RefNotPermitted); its share of this rule's requests (weight 2 of 6) answers 500",
          'spec.rules[2].backendRefs[1]: Service default/ghost does not exist (BackendNotFound)',
          'spec.rules[3].backendRefs[0]: Service default/ghost does not exist (BackendNotFound); this rule redirects, and sends nothing to it',
        ].join('; '),
      },
    ])
  })

  it('the same host and path as an Ingress: the older of the two serves it, the other is reported', () => {
    const old = '2024-01-01T00:00:00Z'
    const young = '2024-06-01T00:00:00Z'
    const route = (createdAt: string) =>
      httpRoute({ name: 'r', createdAt, hostnames: ['shop.example.com'], rules: [{ matches: [{ value: '/api' }], backends: [{ service: 'a' }] }] })
    const web = (createdAt: string) =>
      ingress({ name: 'web', createdAt, rules: [{ host: 'shop.example.com', paths: [{ path: '/api', pathType: 'Prefix', service: 'b' }] }] })
    for (const [routeAt, ingressAt, owner, loser] of [
      [old, young, 'HTTPRoute default/r', 'Ingress default/web'],
      [young, old, 'Ingress default/web', 'HTTPRoute default/r'],
    ] as const) {
      const { model } = fullRebuild([gatewayClass(), edge, route(routeAt), web(ingressAt), ...services(['a', 'b'])])
      expect(model.hosts.get('shop.example.com')!.routes.map((served) => served.owner)).toEqual([owner])
      expect(model.rejections).toEqual([{ object: loser, reason: `host "shop.example.com" Prefix /api is already served by ${owner}, which comes first` }])
    }
  })
})

describe('an HTTPRoute change through the incremental engine', () => {
  it('costs what it changes and ends byte-equal to a full rebuild, through Gateway, GatewayClass, ReferenceGrant and setting changes', () => {
    const route = httpRoute({ name: 'r', hostnames: ['shop.example.com'], rules: [{ backends: [{ service: 'a', namespace: 'team' }] }] })
    const steps: unknown[][] = [
      [gatewayClass(), ...services(['a'], 'team'), ...services(['b'])],
      [route],
      [edge],
      [referenceGrant('let', 'team', 'default')],
      [gateway('edge', [{ name: 'web', hostname: 'www.example.com' }])],
      [
        httpRoute({
          name: 'r',
          hostnames: ['www.example.com'],
          rules: [
            {
              backends: [
                { service: 'b', weight: 1 },
                { service: 'a', namespace: 'team', weight: 3 },
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

  it('a Secret an HTTPS listener names that arrives after its routes re-derives their host, which then serves its certificate', () => {
    const { certPem, keyPem } = fixtureCertificate('shop.example.com')
    const secure = gateway('edge', [{ name: 'tls', protocol: 'HTTPS', hostname: 'shop.example.com', certificate: 'shop-tls' }])
    const objects = [gatewayClass(), secure, httpRoute({ name: 'r', rules: [{ backends: [{ service: 'a' }] }] }), ...services(['a'])]
    const live = new LiveCluster()
    live.apply(objects.map(added))
    expect(live.files().get(FILES.crtList)).toBe(fullRebuild(objects).files.get(FILES.crtList))
    live.apply([added(tlsSecret('shop-tls', certPem, keyPem))])
    const served = fullRebuild([...objects, tlsSecret('shop-tls', certPem, keyPem)])
    expect(served.model.hosts.get('shop.example.com')!.tlsSecret).toBe('default/shop-tls')
    expect(Object.fromEntries(live.files())).toEqual(Object.fromEntries(served.files))
  })

  it('a weight change, or a Service HAProxy has a backend for joining a split, is a runtime map edit, not a reload', () => {
    const weighted = (...weights: number[]) =>
      httpRoute({
        name: 'r',
        hostnames: ['shop.example.com'],
        rules: [
          { matches: [{ type: 'Exact', value: '/c' }], backends: [{ service: 'c' }] },
          { backends: weights.map((weight, i) => ({ service: ['a', 'b', 'c'][i]!, weight })) },
        ],
      })
    const live = new LiveCluster()
    live.apply([gatewayClass(), edge, weighted(90, 10), ...services(['a', 'b', 'c'])].map(added))
    for (const weights of [
      [60, 40],
      [50, 30, 20],
    ]) {
      const { plan } = live.apply([modified(weighted(...weights))])
      expect(plan.reload).toBe(false)
      expect(plan.maps.length).toBeGreaterThan(0)
    }
    expect(live.files().get(FILES.splitPrefixMap)).toBe('shop.example.com/ 100|default_a_80|50|default_b_80|80|default_c_80|100\n')
  })

  it('a rule whose backendRefs all have weight 0 is served answering 500, and weights leaving or coming back to 0 are runtime map edits', () => {
    const weighted = (...weights: number[]) =>
      httpRoute({ name: 'r', hostnames: ['shop.example.com'], rules: [{ backends: weights.map((weight, i) => ({ service: ['a', 'b'][i]!, weight })) }] })
    // Another route's split keeps a, b and the frontend's split rules in HAProxy, so the rule's joining them needs no reload.
    const other = httpRoute({ name: 'other', hostnames: ['other.example.com'], rules: [{ backends: [{ service: 'a' }, { service: 'b' }] }] })
    const objects = [gatewayClass(), edge, other, ...services(['a', 'b'])]
    const { model } = fullRebuild([...objects, weighted(0, 0)])
    expect(routesOf(model, 'shop.example.com')).toEqual([['Prefix', '/', 'hapedge-weightless', 'HTTPRoute default/r', undefined]])
    expect(model.rejections).toEqual([
      { object: 'HTTPRoute default/r', reason: 'spec.rules[0].backendRefs: every backendRef has weight 0; this rule answers 500' },
    ])
    const live = new LiveCluster()
    live.apply([...objects, weighted(0, 0)].map(added))
    for (const weights of [
      [1, 0],
      [1, 1],
      [0, 0],
    ]) {
      const { plan } = live.apply([modified(weighted(...weights))])
      expect(plan.reload).toBe(false)
      expect(plan.maps.length).toBeGreaterThan(0)
    }
    expect(Object.fromEntries(live.files())).toEqual(Object.fromEntries(fullRebuild([...objects, weighted(0, 0)]).files))
  })

  it('a Service that comes or goes re-derives the routes naming it and nothing else; the share of one that does not exist keeps its weight a map edit', () => {
    const split = (weight: number) =>
      httpRoute({
        name: 'r',
        hostnames: ['shop.example.com'],
        rules: [
          {
            backends: [
              { service: 'a', weight },
              { service: 'ghost', weight: 1 },
            ],
          },
        ],
      })
    const other = httpRoute({ name: 'other', hostnames: ['other.example.com'], rules: [{ backends: [{ service: 'a' }] }] })
    const objects = [gatewayClass(), edge, split(1), other, ...services(['a'])]
    const live = new LiveCluster()
    live.apply(objects.map(added))
    expect(live.files().get(FILES.splitPrefixMap)).toBe('shop.example.com/ 2|default_a_80|1|hapedge-unresolved|2\n')
    const weighted = live.apply([modified(split(3))])
    expect(weighted.plan.reload).toBe(false)
    expect(live.files().get(FILES.splitPrefixMap)).toBe('shop.example.com/ 4|default_a_80|3|hapedge-unresolved|4\n')
    const ghost = services(['ghost'])
    const arrived = live.apply(ghost.map(added))
    // Its backend is new to HAProxy (a reload); the route of other.example.com is not derived again.
    expect(arrived.plan.reload).toBe(true)
    expect(arrived.plan.maps.map(({ key }) => key)).toEqual(['shop.example.com/'])
    expect(live.files().get(FILES.splitPrefixMap)).toBe('shop.example.com/ 4|default_a_80|3|default_ghost_80|4\n')
    const present = [gatewayClass(), edge, split(3), other, ...services(['a']), ...ghost]
    expect(Object.fromEntries(live.files())).toEqual(Object.fromEntries(fullRebuild(present).files))
    // Its EndpointSlice changes no route; the Service going answers 500 again.
    expect(live.apply([modified(endpointSlice('ghost', ['10.0.0.9'], [{ port: 8080 }]))]).plan.maps).toEqual([])
    live.apply([deleted(ghost[0])])
    expect(live.files().get(FILES.splitPrefixMap)).toBe('shop.example.com/ 4|default_a_80|3|hapedge-unresolved|4\n')
  })

  it('a header match: a changed value or a new match of a known name is a runtime map edit; a name no match tested before is a reload', () => {
    const matched = (...headers: { name: string; value: string }[]) =>
      httpRoute({
        name: 'r',
        hostnames: ['shop.example.com'],
        rules: [
          ...headers.map((header) => ({ matches: [{ value: '/api', headers: [header] }], backends: [{ service: 'b' }] })),
          { backends: [{ service: 'a' }] },
        ],
      })
    const live = new LiveCluster()
    live.apply([gatewayClass(), edge, matched({ name: 'x-env', value: 'one' }), ...services(['a', 'b'])].map(added))
    for (const [route, reload] of [
      [matched({ name: 'x-env', value: 'two' }), false],
      [matched({ name: 'x-env', value: 'two' }, { name: 'X-Env', value: 'three' }), false],
      [matched({ name: 'x-team', value: 'a' }), true],
    ] as const) {
      const { plan } = live.apply([modified(route)])
      expect(plan.reload).toBe(reload)
      expect(Object.fromEntries(live.files())).toEqual(Object.fromEntries(fullRebuild([gatewayClass(), edge, route, ...services(['a', 'b'])]).files))
    }
  })
})
