import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { gateway, gatewayClass, httpRoute } from '../support/gateway-objects.ts'
import { endpointSlice, ingress, service } from '../support/objects.ts'
import { FILES } from '../../core/render/files.ts'
import { type HttpResponse, request } from '../support/http-client.ts'
import { modified, startRuntimeCluster, type RuntimeCluster } from './runtime-cluster.ts'
import { answeredBy, serveCluster, type ServedCluster } from './serve-cluster.ts'
import { startServices, type ServiceBackends } from './service-backends.ts'

/**
 * HTTPRoute filters and timeouts through the real HAProxy, against loopback Services that echo
 * the request they received: header modifiers on the request and the response (a split's
 * backendRefs' own, after the rule's, on the requests drawn for each), URLRewrite's
 * hostname and paths (the specification's ReplacePrefixMatch table), RequestRedirect's parts, a
 * rule's timeout; and the filters hapedge cannot honour, whose routes are not served (RequestMirror: gateway-mirror.test.ts).
 */

const HOST = 'filters.gw.test'
/** The rule's timeout, and how long the slow Service keeps `/slow` waiting: well beyond it. */
const TIMEOUT_MS = 500
const WAIT_MS = TIMEOUT_MS * 4

const prefix = (value: string) => ({ type: 'PathPrefix', value })
const rewriteTo = (type: 'ReplaceFullPath' | 'ReplacePrefixMatch', value: string, hostname?: string) => ({
  type: 'URLRewrite',
  urlRewrite: {
    ...(hostname ? { hostname } : {}),
    path: { type, ...(type === 'ReplaceFullPath' ? { replaceFullPath: value } : { replacePrefixMatch: value }) },
  },
})

const requestHeaders = (set: Record<string, string>, add: Record<string, string> = {}, remove: string[] = []) => ({
  type: 'RequestHeaderModifier',
  requestHeaderModifier: {
    set: Object.entries(set).map(([name, value]) => ({ name, value })),
    add: Object.entries(add).map(([name, value]) => ({ name, value })),
    remove,
  },
})
const servedBy = (value: string) => ({ type: 'ResponseHeaderModifier', responseHeaderModifier: { set: [{ name: 'X-Served', value }] } })

/**
 * A rule split between three Services, two of them with header filters of their own after the
 * rule's: blue adds to a header the rule adds to, green removes one the rule sets.
 */
const splitRule = (blue: string) => ({
  filters: [requestHeaders({ 'X-Rule': 'rule' }, { 'X-Both': 'rule' })],
  backends: [
    { service: 'blue', filters: [requestHeaders({ 'X-Blue': blue }, { 'X-Both': 'blue' }), servedBy('blue')] },
    { service: 'green', filters: [requestHeaders({ 'X-Green': 'green' }, {}, ['X-Rule']), servedBy('green')] },
    { service: 'echo' },
  ],
})

/**
 * A rule whose URLRewrite names the Host, split between three Services: blue's backendRef replaces the matched
 * prefix (`prefixTo`), green's the whole path and the Host, echo's nothing (the rule's Host).
 */
const rewriteSplitRule = (prefixTo: string) => ({
  matches: [prefix('/api')],
  filters: [{ type: 'URLRewrite', urlRewrite: { hostname: 'rule.internal' } }],
  backends: [
    { service: 'blue', filters: [rewriteTo('ReplacePrefixMatch', prefixTo)] },
    { service: 'green', filters: [rewriteTo('ReplaceFullPath', '/green-full', 'green.internal')] },
    { service: 'echo' },
  ],
})

/** What each Service of rewriteSplitRule('/blue') is sent for `/api/x?q=1`: its path and Host. */
const REWRITTEN: Record<string, [string, string]> = {
  blue: ['/blue/x?q=1', 'rule.internal'],
  green: ['/green-full?q=1', 'green.internal'],
  echo: ['/api/x?q=1', 'rule.internal'],
}

/** Draws of a split of three equal shares until each Service answered (60 at most: one never drawn is a chance of 3 × (2/3)^60, below 10^-10). */
async function drawEach(get: () => Promise<HttpResponse>) {
  const seen = new Map<string, { path: string; host: string }>()
  for (let draw = 0; draw < 60 && seen.size < 3; draw++) {
    const response = await get()
    const { path, host } = response.json() as { path: string; host: string }
    seen.set(answeredBy(response), { path, host })
  }
  return seen
}

function slowBackend(): Promise<Server> {
  const server = createServer((request, response) => {
    const answer = () => response.end(`answered ${request.url}`)
    if (request.url?.endsWith('/slow')) setTimeout(answer, WAIT_MS)
    else answer()
  })
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)))
}

describe('HTTPRoute filters through HAProxy', () => {
  let services: ServiceBackends
  let slow: Server
  let cluster: ServedCluster

  beforeAll(async () => {
    services = await startServices(['echo', 'blue', 'green', 'canary'])
    slow = await slowBackend()
    const route = (name: string, rules: Parameters<typeof httpRoute>[0]['rules'], hostnames = [`${name}.gw.test`]) =>
      httpRoute({ name, parents: [{ name: 'edge' }], hostnames, rules })
    cluster = await serveCluster([
      ...services.objects,
      service('slow'),
      endpointSlice('slow', [{ address: '127.0.0.1', ready: true }], [{ port: (slow.address() as AddressInfo).port }]),
      gatewayClass(),
      gateway('edge', [{ name: 'http', hostname: '*.gw.test' }]),
      route(
        'filters',
        [
          {
            matches: [prefix('/headers')],
            filters: [
              {
                type: 'RequestHeaderModifier',
                requestHeaderModifier: {
                  set: [{ name: 'X-Team', value: 'blue team' }],
                  add: [{ name: 'X-Added', value: 'added' }],
                  remove: ['X-Secret'],
                },
              },
              { type: 'ResponseHeaderModifier', responseHeaderModifier: { set: [{ name: 'X-Served', value: 'gateway' }], remove: ['Content-Type'] } },
            ],
            backends: [{ service: 'echo' }],
          },
          { matches: [prefix('/foo')], filters: [rewriteTo('ReplacePrefixMatch', '/xyz', 'internal.test')], backends: [{ service: 'echo' }] },
          { matches: [prefix('/empty')], filters: [rewriteTo('ReplacePrefixMatch', '')], backends: [{ service: 'echo' }] },
          { matches: [prefix('/root')], filters: [rewriteTo('ReplacePrefixMatch', '/')], backends: [{ service: 'echo' }] },
          { matches: [{ type: 'Exact', value: '/full' }], filters: [rewriteTo('ReplaceFullPath', '/replaced')], backends: [{ service: 'echo' }] },
          { matches: [prefix('/secure')], filters: [{ type: 'RequestRedirect', requestRedirect: { scheme: 'https', statusCode: 301 } }], backends: [] },
          {
            matches: [prefix('/moved')],
            filters: [
              {
                type: 'RequestRedirect',
                requestRedirect: { hostname: 'other.test', port: 8080, path: { type: 'ReplacePrefixMatch', replacePrefixMatch: '/new' } },
              },
            ],
            backends: [],
          },
          {
            matches: [prefix('/same')],
            filters: [{ type: 'RequestRedirect', requestRedirect: { path: { type: 'ReplaceFullPath', replaceFullPath: '/there' } } }],
            backends: [],
          },
          { backends: [{ service: 'echo' }] },
        ],
        [HOST],
      ),
      route('split', [splitRule('blue')]),
      // A canary Ingress on the split path: the requests it takes get the rule's headers, no backendRef's.
      ingress({
        name: 'split-canary',
        annotations: { 'nginx.ingress.kubernetes.io/canary': 'true', 'nginx.ingress.kubernetes.io/canary-by-header': 'x-canary' },
        rules: [{ host: 'split.gw.test', paths: [{ path: '/', service: 'canary' }] }],
      }),
      route('rewrites', [rewriteSplitRule('/blue')]),
      // The requests a canary takes get the rule's own rewrite (its Host, the path as sent).
      ingress({
        name: 'rewrites-canary',
        annotations: { 'nginx.ingress.kubernetes.io/canary': 'true', 'nginx.ingress.kubernetes.io/canary-by-header': 'x-canary' },
        rules: [{ host: 'rewrites.gw.test', paths: [{ path: '/api', service: 'canary' }] }],
      }),
      route('timed', [{ timeouts: { request: `${TIMEOUT_MS}ms` }, backends: [{ service: 'slow' }] }]),
      route('extension', [
        { filters: [{ type: 'ExtensionRef', extensionRef: { group: 'example.com', kind: 'Filter', name: 'x' } }], backends: [{ service: 'echo' }] },
      ]),
      route('twice', [
        {
          filters: [
            { type: 'RequestRedirect', requestRedirect: { scheme: 'https' } },
            { type: 'URLRewrite', urlRewrite: { hostname: 'x.test' } },
          ],
          backends: [{ service: 'echo' }],
        },
      ]),
      route('exact-prefix', [{ matches: [{ type: 'Exact', value: '/a' }], filters: [rewriteTo('ReplacePrefixMatch', '/b')], backends: [{ service: 'echo' }] }]),
      route('host-header', [
        {
          filters: [{ type: 'RequestHeaderModifier', requestHeaderModifier: { set: [{ name: 'Host', value: 'evil.test' }] } }],
          backends: [{ service: 'echo' }],
        },
      ]),
    ])
  })

  afterAll(async () => {
    await cluster?.stop()
    await services?.close()
    await new Promise((resolve) => slow?.close(resolve))
  })

  const echo = async (path: string, headers: Record<string, string> = {}, host = HOST) => {
    const response = await cluster.get(host, path, { headers })
    expect(answeredBy(response)).toBe('echo')
    return { response, echoed: response.json() as { path: string; host: string; headers: Record<string, string> } }
  }

  it('sets, adds and removes request headers, and sets and removes response headers', async () => {
    const { response, echoed } = await echo('/headers/x', { 'x-team': 'red', 'x-added': 'client', 'x-secret': 'hush' })
    expect(echoed.headers['x-team']).toBe('blue team')
    expect(echoed.headers['x-added']).toBe('client, added')
    expect(echoed.headers['x-secret']).toBeUndefined()
    expect([response.headers['x-served'], response.headers['content-type']]).toEqual(['gateway', undefined])
    // Another path of the same host gets none of them.
    const other = await echo('/elsewhere', { 'x-secret': 'hush' })
    expect([other.echoed.headers['x-team'], other.echoed.headers['x-secret'], other.response.headers['x-served']]).toEqual([undefined, 'hush', undefined])
  })

  it('a request split to a Service gets its backendRef’s header filters after the rule’s, and no other backendRef’s', async () => {
    const seen = new Set<string>()
    // 60 draws of three equal shares: one Service never drawn is a chance of 3 × (2/3)^60, below 10^-10.
    for (let sent = 0; sent < 60; sent += 20) {
      const answers = await Promise.all(Array.from({ length: 20 }, () => cluster.get('split.gw.test', '/x')))
      for (const response of answers) {
        const backend = answeredBy(response)
        seen.add(backend)
        const { headers } = response.json() as { headers: Record<string, string> }
        const sent = [headers['x-rule'], headers['x-both'], headers['x-blue'], headers['x-green'], response.headers['x-served']]
        const expected = {
          blue: ['rule', 'rule, blue', 'blue', undefined, 'blue'],
          green: [undefined, 'rule', undefined, 'green', 'green'],
          echo: ['rule', 'rule', undefined, undefined, undefined],
        }[backend]
        expect(sent, backend).toEqual(expected)
      }
    }
    expect([...seen].sort()).toEqual(['blue', 'echo', 'green'])
    const canary = await cluster.get('split.gw.test', '/x', { headers: { 'x-canary': 'always' } })
    const { headers } = canary.json() as { headers: Record<string, string> }
    expect([answeredBy(canary), headers['x-rule'], headers['x-both'], headers['x-blue'], headers['x-green'], canary.headers['x-served']]).toEqual([
      'canary',
      'rule',
      'rule',
      undefined,
      undefined,
      undefined,
    ])
  })

  it("rewrites a matched prefix as the specification's table says, and the Host with URLRewrite's hostname", async () => {
    const cases = [
      ['/foo/bar', '/xyz/bar'],
      ['/foo', '/xyz'],
      ['/foo/', '/xyz/'],
      ['/foo/bar?q=1', '/xyz/bar?q=1'],
      ['/empty/bar', '/bar'],
      ['/empty/', '/'],
      ['/empty', '/'],
      ['/root/', '/'],
      ['/root', '/'],
      ['/root/x', '/x'],
    ]
    const seen = await Promise.all(cases.map(async ([path]) => (await echo(path!)).echoed.path))
    expect(seen).toEqual(cases.map(([, rewritten]) => rewritten))
    expect((await echo('/foo/bar')).echoed.host).toBe('internal.test')
    expect((await echo('/full?x=1')).echoed.path).toBe('/replaced?x=1')
  })

  it("a request split to a Service is rewritten as its backendRef's URLRewrite says (after the rule's), and by no other's", async () => {
    const seen = await drawEach(() => cluster.get('rewrites.gw.test', '/api/x?q=1'))
    expect(Object.fromEntries([...seen].map(([backend, { path, host }]) => [backend, [path, host]]))).toEqual(REWRITTEN)
    const canary = await cluster.get('rewrites.gw.test', '/api/x', { headers: { 'x-canary': 'always' } })
    const { path, host } = canary.json() as { path: string; host: string }
    expect([answeredBy(canary), path, host]).toEqual(['canary', '/api/x', 'rule.internal'])
  })

  it('redirects with the scheme, host, port and path the filter names, keeping the request’s other parts', async () => {
    const secure = await cluster.get(HOST, '/secure/page?a=b')
    expect([secure.status, secure.headers.location]).toEqual([301, `https://${HOST}/secure/page?a=b`])
    const moved = await cluster.get(HOST, '/moved/deep/page')
    expect([moved.status, moved.headers.location]).toEqual([302, 'http://other.test:8080/new/deep/page'])
    // Neither scheme nor port: the port the client named stays, the default one is not written.
    expect((await cluster.get(`${HOST}:8000`, '/same/x')).headers.location).toBe(`http://${HOST}:8000/there`)
    expect((await cluster.get(`${HOST}:80`, '/same/x')).headers.location).toBe(`http://${HOST}/there`)
  })

  it("answers 504 when the Service is silent longer than the rule's timeout", async () => {
    expect((await cluster.get('timed.gw.test', '/fast')).status).toBe(200)
    expect((await cluster.get('timed.gw.test', '/slow')).status).toBe(504)
  })

  it('does not serve a route with a filter it cannot honour, and says why', async () => {
    const reasons = new Map(cluster.model.rejections.map((rejection) => [rejection.object, rejection.reason]))
    for (const name of ['extension', 'twice', 'exact-prefix', 'host-header'])
      expect(answeredBy(await cluster.get(`${name}.gw.test`, '/a')), name).toBe('HTTP 404')
    expect(reasons.get('HTTPRoute default/extension')).toBe(
      'spec.rules[0].filters[0]: ExtensionRef is not honoured by hapedge (it has no extension filters); the HTTPRoute is not served',
    )
    expect(reasons.get('HTTPRoute default/twice')).toBe(
      'spec.rules[0].filters: RequestRedirect and URLRewrite in one rule; the specification allows one or the other; the HTTPRoute is not served',
    )
    expect(reasons.get('HTTPRoute default/exact-prefix')).toBe(
      'spec.rules[0].filters[0].urlRewrite.path.type: ReplacePrefixMatch needs every match of the rule to be a PathPrefix, as the specification says; the HTTPRoute is not served',
    )
    expect(reasons.get('HTTPRoute default/host-header')).toBe(
      'spec.rules[0].filters[0].requestHeaderModifier.set[0].name: "host" selects the route, and the Service is sent the Host the client asked for; the HTTPRoute is not served',
    )
  })
})

describe('HTTPRoute filter values change at runtime', () => {
  let services: ServiceBackends
  let cluster: RuntimeCluster

  /** A header set on the request and a redirect's host: values in maps, so a change is a map edit. */
  const site = (team: string, target: string) =>
    httpRoute({
      name: 'site',
      hostnames: ['site.gw.test'],
      rules: [
        { filters: [{ type: 'RequestHeaderModifier', requestHeaderModifier: { set: [{ name: 'X-Team', value: team }] } }], backends: [{ service: 'echo' }] },
        { matches: [prefix('/old')], filters: [{ type: 'RequestRedirect', requestRedirect: { hostname: target } }], backends: [] },
      ],
    })
  const get = (path: string) => request(`http://127.0.0.1:${cluster.httpPort}${path}`, { headers: { host: 'site.gw.test' } })

  const split = (blue: string) => httpRoute({ name: 'split', hostnames: ['split.gw.test'], rules: [splitRule(blue)] })
  const rewrites = (prefixTo: string) => httpRoute({ name: 'rewrites', hostnames: ['rewrites.gw.test'], rules: [rewriteSplitRule(prefixTo)] })

  beforeAll(async () => {
    services = await startServices(['echo', 'blue', 'green'])
    cluster = await startRuntimeCluster(
      [...services.objects, gatewayClass(), gateway('edge', [{ name: 'http' }]), site('blue', 'a.test'), split('blue'), rewrites('/blue')],
      'hapedge-gateway-filters',
    )
  })

  afterAll(async () => {
    await cluster?.stop()
    await services?.close()
  })

  it('sends the new header value and redirects to the new host after map edits, without a reload', async () => {
    expect((await get('/x')).json().headers['x-team']).toBe('blue')
    expect((await get('/old/page')).headers.location).toBe('http://a.test/old/page')
    const before = await cluster.workers()
    const changed = 'green; 100% "sure"'
    const { applied } = await cluster.atRuntime([modified(site(changed, 'b.test'))])
    expect(new Set(applied.maps.map(({ name }) => name))).toEqual(new Set([FILES.headerValuesMap, FILES.locationExactMap, FILES.locationPrefixMap]))
    expect((await get('/x')).json().headers['x-team']).toBe(changed)
    expect((await get('/old/page')).headers.location).toBe('http://b.test/old/page')
    expect(await cluster.workers()).toEqual(before)
  })

  it("a backendRef's changed header value is a map edit too, without a reload", async () => {
    // The header blue's requests are sent, from the first of 60 draws that is blue's (one in three each).
    const blueOnce = async () => {
      for (let draw = 0; draw < 60; draw++) {
        const response = await request(`http://127.0.0.1:${cluster.httpPort}/`, { headers: { host: 'split.gw.test' } })
        if (answeredBy(response) === 'blue') return response.json().headers['x-blue']
      }
      return 'no draw was blue'
    }
    expect(await blueOnce()).toBe('blue')
    const before = await cluster.workers()
    const { applied } = await cluster.atRuntime([modified(split('navy'))])
    expect(applied.maps.map(({ name }) => name)).toEqual([FILES.headerValuesMap])
    expect(await blueOnce()).toBe('navy')
    expect(await cluster.workers()).toEqual(before)
  })

  it("a backendRef's changed URLRewrite is a map edit too, without a reload", async () => {
    const get = () => request(`http://127.0.0.1:${cluster.httpPort}/api/x?q=1`, { headers: { host: 'rewrites.gw.test' } })
    expect((await drawEach(get)).get('blue')).toEqual({ path: '/blue/x?q=1', host: 'rule.internal' })
    const before = await cluster.workers()
    const { applied } = await cluster.atRuntime([modified(rewrites('/navy'))])
    expect(applied.maps.map(({ name }) => name)).toEqual([FILES.rewriteExactMap])
    expect((await drawEach(get)).get('blue')).toEqual({ path: '/navy/x?q=1', host: 'rule.internal' })
    expect(await cluster.workers()).toEqual(before)
  })
})
