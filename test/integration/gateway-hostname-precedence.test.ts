import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fixtureCertificate } from '../support/fixtures.ts'
import { gateway, gatewayClass, grpcRoute, httpRoute, type RuleSpec } from '../support/gateway-objects.ts'
import { request } from '../support/http-client.ts'
import { ingress, tlsSecret } from '../support/objects.ts'
import { modified, startRuntimeCluster, type RuntimeCluster } from './runtime-cluster.ts'
import { answeredBy, serveCluster, type ServedCluster } from './serve-cluster.ts'
import { startServices, type ServiceBackends } from './service-backends.ts'

/**
 * HTTPRouteSpec.hostnames' precedence through HAProxy: the rules of every route whose hostnames
 * match a name are candidates, the route with the longest non-wildcard name first, then the
 * longest wildcard, then the routes without hostnames. A name with a route of its own that has no
 * rule for the request is served by a wildcard route's rule, with that rule's filters; the exact
 * route's rules still come first, whatever the wildcard's match. An Ingress's host keeps its
 * requests (ingress-nginx picks one server block). A wildcard route's rule that comes or goes is
 * a runtime map edit.
 */

const rule = (service: string, value: string, type = 'PathPrefix', filters?: unknown[]): RuleSpec => ({
  matches: [{ type, value }],
  backends: [{ service }],
  ...(filters ? { filters } : {}),
})

const TAGGED = [{ type: 'ResponseHeaderModifier', responseHeaderModifier: { set: [{ name: 'X-Served-By-Rule', value: 'wide-page' }] } }]

const wide = (extra: RuleSpec[] = []) =>
  httpRoute({
    name: 'wide',
    hostnames: ['*.example.test'],
    rules: [
      rule('wide', '/page', 'PathPrefix', TAGGED),
      rule('wide', '/api/v1', 'Exact'),
      {
        matches: [{ value: '/moved' }],
        backends: [],
        filters: [{ type: 'RequestRedirect', requestRedirect: { path: { type: 'ReplaceFullPath', replaceFullPath: '/elsewhere' }, statusCode: 302 } }],
      },
      rule('ghost', '/ghost'),
      ...extra,
    ],
  })

describe('hostname precedence across HTTPRoutes, through HAProxy', () => {
  let services: ServiceBackends
  let cluster: RuntimeCluster

  beforeAll(async () => {
    services = await startServices(['exact', 'root', 'wide', 'deep', 'deep-exact', 'last', 'ingress', 'mixed'])
    cluster = await startRuntimeCluster(
      [
        ...services.objects,
        gatewayClass(),
        gateway('edge', [{ name: 'web' }]),
        httpRoute({ name: 'exact', hostnames: ['api.example.test'], rules: [rule('exact', '/api')] }),
        httpRoute({ name: 'root', hostnames: ['root.example.test'], rules: [rule('root', '/')] }),
        wide(),
        httpRoute({ name: 'deep', hostnames: ['*.b.example.test'], rules: [rule('deep', '/deep')] }),
        httpRoute({ name: 'deep-exact', hostnames: ['api.b.example.test'], rules: [rule('deep-exact', '/own')] }),
        httpRoute({ name: 'last', rules: [rule('last', '/last')] }),
        ingress({ name: 'ingress', rules: [{ host: 'ing.example.test', paths: [{ path: '/ing', service: 'ingress' }] }] }),
        ingress({ name: 'mixed-wildcard', rules: [{ host: '*.mix.test', paths: [{ path: '/page', service: 'mixed' }] }] }),
        httpRoute({ name: 'mixed-exact', hostnames: ['api.mix.test'], rules: [rule('exact', '/own')] }),
      ],
      'hapedge-gateway-hostname-precedence',
    )
  })

  afterAll(async () => {
    await cluster?.stop()
    await services?.close()
  })

  const send = (host: string, path: string) => request(`http://127.0.0.1:${cluster.httpPort}${path}`, { headers: { host } })
  const get = async (host: string, path: string) => answeredBy(await send(host, path))

  it("a name whose route has no rule for the request is served by the wildcard route's rule, with its filters", async () => {
    expect(await get('api.example.test', '/api')).toBe('exact')
    expect(await get('api.example.test', '/page')).toBe('wide')
    const tagged = await send('api.example.test', '/page/x')
    expect(answeredBy(tagged)).toBe('wide')
    expect(tagged.headers['x-served-by-rule']).toBe('wide-page')
    const moved = await send('api.example.test', '/moved')
    expect(moved.status).toBe(302)
    // The request's host, as the redirect made from it says; no port, as the specification asks (the scheme's own).
    expect(moved.headers.location).toBe('http://api.example.test/elsewhere')
    const ghost = await send('api.example.test', '/ghost')
    expect(ghost.status).toBe(500)
    expect(ghost.headers['x-hapedge-refused']).toBe('the HTTPRoute backendRef this request was sent to does not resolve')
  })

  it("the name's own route comes first, whatever the wildcard's match", async () => {
    // The wildcard's Exact /api/v1 is a closer match than the exact route's PathPrefix /api: the exact route's rules come first.
    expect(await get('api.example.test', '/api/v1')).toBe('exact')
    expect(await get('root.example.test', '/page')).toBe('root')
    expect(await get('other.example.test', '/api/v1')).toBe('wide')
  })

  it('the longest wildcard first, then the shorter, then the routes without hostnames', async () => {
    expect(await get('x.b.example.test', '/deep')).toBe('deep')
    expect(await get('x.b.example.test', '/page')).toBe('wide')
    expect(await get('api.b.example.test', '/own')).toBe('deep-exact')
    expect(await get('api.b.example.test', '/deep')).toBe('deep')
    expect(await get('api.b.example.test', '/page')).toBe('wide')
    expect(await get('api.b.example.test', '/last')).toBe('last')
    expect(await get('api.example.test', '/last')).toBe('last')
    expect(await get('api.example.test', '/nothing')).toBe('HTTP 404')
    expect(await get('api.b.example.test', '/nothing')).toBe('HTTP 404')
  })

  it("an Ingress's host keeps its requests; a name only HTTPRoutes serve falls through to an Ingress's wildcard", async () => {
    expect(await get('ing.example.test', '/ing')).toBe('ingress')
    expect(await get('ing.example.test', '/page')).toBe('HTTP 404')
    expect(await get('api.mix.test', '/own')).toBe('exact')
    expect(await get('api.mix.test', '/page')).toBe('mixed')
  })

  it("a wildcard route's rule that comes or goes is a runtime map edit of its own entries", async () => {
    const workers = await cluster.workers()
    expect(await get('api.example.test', '/added')).toBe('HTTP 404')
    const { plan } = await cluster.atRuntime([modified(wide([rule('wide', '/added')]))])
    expect(await get('api.example.test', '/added')).toBe('wide')
    expect(await get('api.b.example.test', '/added')).toBe('wide')
    // Only the wildcard's own keys: no name under it is derived again.
    const keys = plan.maps.map((update) => update.key)
    expect(keys).toContain('*.example.test/added/')
    expect(keys.filter((key) => !key.startsWith('*.example.test/added'))).toEqual([])
    await cluster.atRuntime([modified(wide())])
    expect(await get('api.example.test', '/added')).toBe('HTTP 404')
    expect(await cluster.workers()).toEqual(workers)
  })
})

describe('hostname precedence on HTTPS, on a port of its own and beside a GRPCRoute, through HAProxy', () => {
  let services: ServiceBackends
  let cluster: ServedCluster

  beforeAll(async () => {
    services = await startServices(['exact', 'wide', 'last'])
    const { certPem, keyPem } = fixtureCertificate('shop.example.com')
    const on = (name: string, sectionName: string, hostnames: string[] | undefined, path: string, service: string) =>
      httpRoute({ name, hostnames, parents: [{ name: 'edge', sectionName }], rules: [rule(service, path)] })
    cluster = await serveCluster(
      [
        ...services.objects,
        tlsSecret('cert', certPem, keyPem),
        gatewayClass(),
        gateway('edge', [
          { name: 'web' },
          { name: 'tls', protocol: 'HTTPS', hostname: '*.secure.test', certificate: 'cert' },
          { name: 'only', protocol: 'HTTPS', hostname: 'only.mixed.test', certificate: 'cert' },
          { name: 'alt', port: 8080 },
        ]),
        on('secure-wide', 'tls', ['*.secure.test'], '/page', 'wide'),
        on('secure-api', 'web', ['api.secure.test'], '/own', 'exact'),
        on('mixed-wide', 'web', ['*.mixed.test'], '/page', 'wide'),
        on('mixed-only', 'only', ['only.mixed.test'], '/own', 'exact'),
        on('port-wide', 'alt', ['*.port.test'], '/page', 'wide'),
        on('port-exact', 'alt', ['api.port.test'], '/own', 'exact'),
        on('port-last', 'alt', undefined, '/last', 'last'),
        grpcRoute({
          name: 'grpc',
          hostnames: ['grpc.mixed.test'],
          parents: [{ name: 'edge', sectionName: 'web' }],
          rules: [{ matches: [{ method: { service: 'hapedge.Echo' } }], backends: [{ service: 'exact' }] }],
        }),
      ],
      { ownPorts: [{ port: 8080, protocol: 'HTTP' }] },
    )
  })

  afterAll(async () => {
    await cluster?.stop()
    await services?.close()
  })

  const get = (host: string, path: string) => cluster.get(host, path).then(answeredBy)
  const https = (host: string, path: string) => cluster.https(host, path).then(answeredBy)

  it('a wildcard only HTTPS listeners serve redirects to HTTPS the plain requests it takes, and serves them there', async () => {
    expect(await get('api.secure.test', '/own')).toBe('exact')
    const redirected = await cluster.get('api.secure.test', '/page')
    expect(redirected.status).toBe(308)
    expect(redirected.headers.location).toBe(`https://api.secure.test:${cluster.httpsPort}/page`)
    expect(await https('api.secure.test', '/page')).toBe('wide')
  })

  it("a name only HTTPS listeners serve is its listener's hostname: it keeps its requests, its 308 on plain HTTP and its 404s", async () => {
    expect((await cluster.get('only.mixed.test', '/own')).status).toBe(308)
    expect((await cluster.get('only.mixed.test', '/page')).status).toBe(308)
    expect(await https('only.mixed.test', '/own')).toBe('exact')
    expect(await https('only.mixed.test', '/page')).toBe('HTTP 404')
  })

  it("a GRPCRoute's name falls through to an HTTPRoute's wildcard", async () => {
    expect(await get('grpc.mixed.test', '/page')).toBe('wide')
  })

  it("on a port of its own: the name's route, then the port's wildcard, then the port's routes without hostnames, never another port's", async () => {
    expect(await get('api.port.test:8080', '/own')).toBe('exact')
    expect(await get('api.port.test:8080', '/page')).toBe('wide')
    expect(await get('api.port.test:8080', '/last')).toBe('last')
    expect(await get('api.port.test:8080', '/nothing')).toBe('HTTP 404')
    expect(await get('api.port.test', '/page')).toBe('HTTP 404')
  })
})

/**
 * The specification's listener isolation (conformance HTTPListenerIsolation, gateway-api #2465): a request is matched to the most
 * specific listener and its routes only. A listener's own hostname does not fall through: every route attached to it is on that
 * host or a narrower one, so a wider host's routes are other listeners'.
 */
describe('listener isolation through HAProxy: a listener hostname keeps its requests', () => {
  const LISTENERS = ['empty-hostname', 'wildcard-example-com', 'wildcard-foo-example-com', 'abc-foo-example-com']
  let services: ServiceBackends
  let cluster: ServedCluster

  beforeAll(async () => {
    services = await startServices(LISTENERS)
    cluster = await serveCluster([
      ...services.objects,
      gatewayClass(),
      gateway('edge', [
        { name: 'empty-hostname' },
        { name: 'wildcard-example-com', hostname: '*.example.com' },
        { name: 'wildcard-foo-example-com', hostname: '*.foo.example.com' },
        { name: 'abc-foo-example-com', hostname: 'abc.foo.example.com' },
      ]),
      ...LISTENERS.map((name) => httpRoute({ name, parents: [{ name: 'edge', sectionName: name }], rules: [rule(name, `/${name}`)] })),
    ])
  })

  afterAll(async () => {
    await cluster?.stop()
    await services?.close()
  })

  it.each([
    ['bar.com', 'empty-hostname'],
    ['bar.example.com', 'wildcard-example-com'],
    ['bar.foo.example.com', 'wildcard-foo-example-com'],
    ['abc.foo.example.com', 'abc-foo-example-com'],
  ])('%s is served by its listener %s only', async (host, listener) => {
    for (const path of LISTENERS) expect(await cluster.get(host, `/${path}`).then(answeredBy)).toBe(path === listener ? listener : 'HTTP 404')
  })
})
