import { describe, expect, it } from 'vitest'
import { LiveCluster } from '../../../core/incremental/live-cluster.ts'
import { durationMs, LONGEST_TIMEOUT_MS } from '../../../core/model/gateway-timeouts.ts'
import { FILES } from '../../../core/render/files.ts'
import { fullRebuild } from '../../../core/render/full-rebuild.ts'
import { gateway, gatewayClass, httpRoute, type RuleSpec } from '../../support/gateway-objects.ts'
import { endpointSlice, service } from '../../support/objects.ts'

/** HTTPRoute filters and timeouts as route features: what each becomes, what is reported, and what a change costs. */

const objects = [
  gatewayClass(),
  gateway('edge', [{ name: 'web', hostname: '*.example.com' }]),
  service('a', [{ port: 80 }]),
  endpointSlice('a', ['10.0.0.1'], [{ port: 8080 }]),
]
const routeWith = (rule: Partial<RuleSpec>) => httpRoute({ name: 'r', hostnames: ['shop.example.com'], rules: [{ backends: [{ service: 'a' }], ...rule }] })
const added = (object: unknown) => ({ type: 'ADDED' as const, object: object as Record<string, unknown> })
const modified = (object: unknown) => ({ type: 'MODIFIED' as const, object: object as Record<string, unknown> })

/** The one route the rule gives, or the reason the HTTPRoute is not served. */
function served(rule: Partial<RuleSpec>) {
  const { model } = fullRebuild([...objects, routeWith(rule)])
  const route = model.hosts.get('shop.example.com')?.routes[0]
  return route ?? model.rejections.find((rejection) => rejection.object === 'HTTPRoute default/r')?.reason
}

const rewrite = (path?: object, hostname?: string) => ({ type: 'URLRewrite', urlRewrite: { ...(path ? { path } : {}), ...(hostname ? { hostname } : {}) } })
const headerFilter = (type: 'RequestHeaderModifier' | 'ResponseHeaderModifier', modifier: object) => ({
  type,
  [type === 'RequestHeaderModifier' ? 'requestHeaderModifier' : 'responseHeaderModifier']: modifier,
})

describe('HTTPRoute filters', () => {
  it('header modifiers are header rules: removals, sets, additions; the first of two equivalent names', () => {
    const route = served({
      filters: [
        headerFilter('RequestHeaderModifier', {
          set: [
            { name: 'X-Team', value: 'blue' },
            { name: 'x-team', value: 'ignored' },
          ],
          add: [{ name: 'X-Add', value: 'a' }],
          remove: ['X-Drop'],
        }),
        headerFilter('ResponseHeaderModifier', { set: [{ name: 'X-Out', value: 'o' }] }),
      ],
    })
    expect(route).toMatchObject({
      headers: [
        { rule: 'req-del|x-drop', value: '' },
        { rule: 'req-set|x-team', value: 'blue' },
        { rule: 'req-add|x-add', value: 'a' },
        { rule: 'res-set|x-out', value: 'o' },
      ],
    })
  })

  it('URLRewrite is the route’s rewrite and upstream Host; RequestRedirect answers, needing no Service', () => {
    expect(
      served({
        filters: [{ type: 'URLRewrite', urlRewrite: { hostname: 'in.example.com', path: { type: 'ReplacePrefixMatch', replacePrefixMatch: '/v2/' } } }],
      }),
    ).toMatchObject({
      upstreamHost: 'in.example.com',
      rewrite: { path: { before: '/v2', capture: 'rest', after: '' } },
    })
    expect(served({ filters: [{ type: 'URLRewrite', urlRewrite: { path: { type: 'ReplaceFullPath', replaceFullPath: '/x' } } }] })).toMatchObject({
      rewrite: { path: { before: '/x', capture: 'none', after: '' } },
    })
    const redirect = served({ backends: [], filters: [{ type: 'RequestRedirect', requestRedirect: { scheme: 'https' } }] })
    expect(redirect).toMatchObject({ backendName: 'hapedge-redirect', redirect: { code: 302, parts: { scheme: 'https' } } })
    expect(served({ filters: [{ type: 'RequestRedirect', requestRedirect: { hostname: 'b.example.com' } }] })).toMatchObject({
      redirect: { parts: { hostname: 'b.example.com', port: 'request' } },
    })
  })

  it('reports what it cannot honour with the field, and does not serve the route', () => {
    const cases: [Partial<RuleSpec>, string][] = [
      [
        { filters: [headerFilter('RequestHeaderModifier', { set: [{ name: 'X-A', value: 'a' }] }), headerFilter('RequestHeaderModifier', {})] },
        'spec.rules[0].filters[1]: a second RequestHeaderModifier filter in one rule; the specification allows one',
      ],
      [
        { filters: [headerFilter('RequestHeaderModifier', { add: [{ name: 'X-A', value: '' }] })] },
        'spec.rules[0].filters[0].requestHeaderModifier.add[0].value: must not be empty',
      ],
      [
        { filters: [headerFilter('ResponseHeaderModifier', { set: [{ name: 'X-A', value: 'a\nb' }] })] },
        'spec.rules[0].filters[0].responseHeaderModifier.set[0].value: must not contain control characters (a line end, say)',
      ],
      [
        { filters: [{ type: 'RequestRedirect', requestRedirect: { statusCode: 305 } }] },
        'spec.rules[0].filters[0].requestRedirect.statusCode: 305 is not a redirect status hapedge answers (301, 302, 303, 307, 308) (UnsupportedValue)',
      ],
      [
        { filters: [{ type: 'RequestRedirect', requestRedirect: { hostname: '*.example.com' } }] },
        'spec.rules[0].filters[0].requestRedirect.hostname: "*.example.com" must be a DNS name without wildcard',
      ],
      [
        { filters: [{ type: 'URLRewrite', urlRewrite: { path: { type: 'ReplaceFullPath', replaceFullPath: 'x y' } } }] },
        'spec.rules[0].filters[0].urlRewrite.path: must be an absolute path starting with "/"',
      ],
      [{ filters: [{ type: 'CORS', cors: {} }] }, 'spec.rules[0].filters[0].type: "CORS" is not a filter hapedge knows (UnsupportedValue)'],
      [
        {
          filters: [
            { type: 'RequestRedirect', requestRedirect: { scheme: 'https' } },
            headerFilter('ResponseHeaderModifier', { set: [{ name: 'X-A', value: 'a' }] }),
          ],
        },
        'spec.rules[0].filters: header modifiers beside a RequestRedirect is not honoured by hapedge: it answers the redirect itself, forwarding nothing, and its own answers get no response headers',
      ],
      [{ timeouts: { request: '1s', backendRequest: '2s' } }, 'spec.rules[0].timeouts.backendRequest: must not be longer than request'],
      [{ timeouts: { request: '1 s' } }, 'spec.rules[0].timeouts.request: "1 s" is not a duration (such as 500ms, 10s, 1m30s)'],
      [{ timeouts: { request: '99999h' } }, 'spec.rules[0].timeouts.request: "99999h" is longer than HAProxy\'s longest timeout (2147483647 ms)'],
    ]
    for (const [rule, reason] of cases) expect(served(rule)).toBe(`${reason}; the HTTPRoute is not served`)
  })

  it('header filters of a rule’s one weighted backendRef are the rule’s own, after its filters; a backendRef of weight 0 takes none', () => {
    const route = served({
      filters: [headerFilter('RequestHeaderModifier', { set: [{ name: 'X-Rule', value: 'rule' }] })],
      backends: [
        { service: 'a', filters: [headerFilter('ResponseHeaderModifier', { add: [{ name: 'X-Backend', value: 'a' }] })] },
        { service: 'b', weight: 0, filters: [{ type: 'URLRewrite', urlRewrite: { hostname: 'b.internal' } }] },
      ],
    })
    expect(typeof route === 'object' && route.headers).toEqual([
      { rule: 'req-set|x-rule', value: 'rule' },
      { rule: 'res-add|x-backend', value: 'a' },
    ])
  })

  it('a header both the rule and its backendRef change ends as the backendRef says, after the rule', () => {
    const route = served({
      filters: [
        headerFilter('RequestHeaderModifier', { set: [{ name: 'X-Set', value: 'rule' }], add: [{ name: 'X-Add', value: 'rule' }], remove: ['X-Gone'] }),
      ],
      backends: [
        {
          service: 'a',
          filters: [
            headerFilter('RequestHeaderModifier', {
              add: [
                { name: 'X-Set', value: 'ref' },
                { name: 'X-Add', value: 'ref' },
              ],
              set: [{ name: 'X-Gone', value: 'back' }],
            }),
          ],
        },
      ],
    })
    // X-Set: the rule's value, then the backendRef's added; X-Add: both additions; X-Gone: the backendRef's set replaces the rule's removal.
    expect(typeof route === 'object' && route.headers).toEqual([
      { rule: 'req-set|x-gone', value: 'back' },
      { rule: 'req-set|x-set', value: 'rule' },
      { rule: 'req-add|x-add', value: 'rule' },
      { rule: 'req-add|x-add|2', value: 'ref' },
      { rule: 'req-add|x-set', value: 'ref' },
    ])
  })

  it('the backendRefs of a split keep their own header sets (the rule’s, then theirs); those without filters get the rule’s', () => {
    const route = served({
      filters: [headerFilter('RequestHeaderModifier', { set: [{ name: 'X-Rule', value: 'rule' }] })],
      backends: [
        { service: 'a', weight: 1, filters: [headerFilter('ResponseHeaderModifier', { set: [{ name: 'X-Served', value: 'a80' }] })] },
        { service: 'a', port: 81, weight: 1 },
      ],
    })
    expect(typeof route === 'object' && route.headers).toEqual([{ rule: 'req-set|x-rule', value: 'rule' }])
    expect(typeof route === 'object' && route.split?.backends.map(({ backendName, headers }) => [backendName, headers])).toEqual([
      [
        'default_a_80',
        [
          { rule: 'req-set|x-rule', value: 'rule' },
          { rule: 'res-set|x-served', value: 'a80' },
        ],
      ],
      ['default_a_81', undefined],
    ])
  })

  it('a backendRef’s URLRewrite is its Service’s path and Host in a split (after the rule’s, which the others keep), and the rule’s own for its one weighted backendRef', () => {
    const route = served({
      matches: [{ type: 'PathPrefix', value: '/api' }],
      filters: [rewrite(undefined, 'rule.internal')],
      backends: [
        { service: 'a', weight: 1, filters: [rewrite({ type: 'ReplacePrefixMatch', replacePrefixMatch: '/v2' })] },
        { service: 'a', port: 81, weight: 1, filters: [rewrite({ type: 'ReplaceFullPath', replaceFullPath: '/full' }, 'b.internal')] },
        { service: 'a', port: 82, weight: 1 },
      ],
    })
    expect(typeof route === 'object' && [route.rewrite, route.upstreamHost]).toEqual([undefined, 'rule.internal'])
    expect(typeof route === 'object' && route.split?.backends.map(({ backendName, rewrite, upstreamHost }) => [backendName, rewrite, upstreamHost])).toEqual([
      ['default_a_80', { path: { before: '/v2', capture: 'rest', after: '' } }, undefined],
      ['default_a_81', { path: { before: '/full', capture: 'none', after: '' } }, 'b.internal'],
      ['default_a_82', undefined, undefined],
    ])
    const one = served({ backends: [{ service: 'a', filters: [rewrite({ type: 'ReplaceFullPath', replaceFullPath: '/one' }, 'one.internal')] }] })
    expect(typeof one === 'object' && [one.rewrite, one.upstreamHost, one.split]).toEqual([
      { path: { before: '/one', capture: 'none', after: '' } },
      'one.internal',
      undefined,
    ])
  })

  it('reports other filter types on a backendRef, and two backendRefs of one Service port with different header sets', () => {
    const request = (name: string) => headerFilter('RequestHeaderModifier', { set: [{ name, value: 'v' }] })
    const cases: [Partial<RuleSpec>, string][] = [
      [
        { backends: [{ service: 'a', filters: [{ type: 'RequestMirror', requestMirror: { backendRef: { name: 'a', port: 80 } } }] }] },
        'spec.rules[0].backendRefs[0].filters[0]: RequestMirror is not honoured by hapedge on a backendRef (RequestHeaderModifier, ResponseHeaderModifier and URLRewrite are)',
      ],
      [
        {
          filters: [rewrite({ type: 'ReplaceFullPath', replaceFullPath: '/rule' })],
          backends: [{ service: 'a', filters: [rewrite({ type: 'ReplacePrefixMatch', replacePrefixMatch: '/ref' })] }],
        },
        'spec.rules[0].backendRefs[0].filters[0].urlRewrite.path: a ReplacePrefixMatch on a backendRef whose rule rewrites the path too is not honoured by hapedge (the prefix it replaces is gone)',
      ],
      [
        {
          backends: [
            { service: 'a', filters: [rewrite(undefined, 'one.internal')] },
            { service: 'a', filters: [rewrite(undefined, 'two.internal')] },
            { service: 'a', port: 81 },
          ],
        },
        'spec.rules[0].backendRefs: two weighted backendRefs of Service default/a port 80 with different URLRewrite hostnames is not honoured by hapedge (its draw picks a Service port, not a backendRef)',
      ],
      [
        {
          filters: [{ type: 'RequestRedirect', requestRedirect: { scheme: 'https' } }],
          backends: [{ service: 'a', filters: [rewrite(undefined, 'a.internal')] }],
        },
        'spec.rules[0].backendRefs[0].filters: filters on a backendRef of a rule that redirects is not honoured by hapedge (it forwards nothing)',
      ],
      [
        {
          backends: [
            { service: 'a', filters: [request('X-A')] },
            { service: 'a', filters: [request('X-B')] },
            { service: 'a', port: 81 },
          ],
        },
        'spec.rules[0].backendRefs: two weighted backendRefs of Service default/a port 80 with different header filters is not honoured by hapedge (its draw picks a Service port, not a backendRef)',
      ],
    ]
    for (const [rule, reason] of cases) expect(served(rule)).toBe(`${reason}; the HTTPRoute is not served`)
  })
})

describe('HTTPRoute timeouts', () => {
  it('reads Gateway API durations', () => {
    expect([durationMs('1h'), durationMs('1m30s'), durationMs('500ms'), durationMs('2s500ms'), durationMs('0s')]).toEqual([3_600_000, 90_000, 500, 2500, 0])
    expect([durationMs('1.5s'), durationMs('1d'), durationMs('123456s'), durationMs('')]).toEqual([undefined, undefined, undefined, undefined])
  })

  it('the shorter of request and backendRequest is the Service’s timeout; 0s, none, is HAProxy’s longest', () => {
    expect(served({ timeouts: { request: '10s', backendRequest: '2s' } })).toMatchObject({ timeouts: { server: 2000 } })
    expect(served({ timeouts: { request: '0s', backendRequest: '3s' } })).toMatchObject({ timeouts: { server: 3000 } })
    expect(served({ timeouts: { request: '0s' } })).toMatchObject({ timeouts: { server: LONGEST_TIMEOUT_MS } })
  })
})

describe('a change of a filter', () => {
  const live = (rule: Partial<RuleSpec>) => {
    const cluster = new LiveCluster()
    cluster.apply([...objects, routeWith(rule)].map(added))
    return cluster
  }
  const setHeader = (name: string, value: string) => ({ filters: [headerFilter('RequestHeaderModifier', { set: [{ name, value }] })] })

  it('a header value, a rewrite, a redirect target or a timeout is a runtime map edit', () => {
    const changes: [Partial<RuleSpec>, Partial<RuleSpec>, string][] = [
      [setHeader('X-Team', 'blue'), setHeader('X-Team', 'green'), FILES.headerValuesMap],
      [
        { filters: [{ type: 'URLRewrite', urlRewrite: { path: { type: 'ReplacePrefixMatch', replacePrefixMatch: '/v1' } } }] },
        { filters: [{ type: 'URLRewrite', urlRewrite: { path: { type: 'ReplacePrefixMatch', replacePrefixMatch: '/v2' } } }] },
        FILES.rewritePrefixMap,
      ],
      [
        { filters: [{ type: 'RequestRedirect', requestRedirect: { hostname: 'a.example.com' } }] },
        { filters: [{ type: 'RequestRedirect', requestRedirect: { hostname: 'b.example.com', statusCode: 301 } }] },
        FILES.locationPrefixMap,
      ],
      [{ timeouts: { request: '1s' } }, { timeouts: { request: '2s' } }, FILES.timeoutPrefixMap],
    ]
    for (const [before, after, map] of changes) {
      const { plan } = live(before).apply([modified(routeWith(after))])
      expect(plan.reload).toBe(false)
      expect(plan.maps.map((edit) => edit.map)).toContain(map)
    }
  })

  it('a header name no other route has is a reload, which the plan says', () => {
    const { plan } = live(setHeader('X-Team', 'blue')).apply([modified(routeWith(setHeader('X-Other', 'blue')))])
    expect(plan.reload).toBe(true)
    expect(plan.reasons.join('\n')).toContain('HTTPRoute default/r gained header rules (request set x-other)')
  })
})
