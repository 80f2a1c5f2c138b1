import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FILES } from '../../core/render/files.ts'
import { request, type HttpResponse } from '../support/http-client.ts'
import { ingress } from '../support/objects.ts'
import { rawRequest } from '../support/raw-http.ts'
import { modified, startRuntimeCluster, type RuntimeCluster } from './runtime-cluster.ts'
import { answeredBy } from './serve-cluster.ts'
import { startServices, type ServiceBackends } from './service-backends.ts'

/**
 * CORS through the real HAProxy, against a loopback Service that answers every request itself: a
 * preflight from an allowed origin answered 204 by HAProxy (never reaching the Service), the
 * Service's answers given the headers, an origin echoed only when the route lists it, and a
 * changed list applied at runtime.
 */

const NGINX = 'nginx.ingress.kubernetes.io/'
const APP = 'https://app.example.com'
const listed = (origins: string) =>
  ingress({
    name: 'listed',
    annotations: {
      [`${NGINX}enable-cors`]: 'true',
      [`${NGINX}cors-allow-origin`]: origins,
      [`${NGINX}cors-allow-methods`]: 'GET, PUT',
      [`${NGINX}cors-allow-headers`]: 'Content-Type, X-Token',
      [`${NGINX}cors-expose-headers`]: 'X-Total',
      [`${NGINX}cors-max-age`]: '600',
    },
    rules: [{ host: 'api.test', paths: [{ path: '/', pathType: 'Prefix', service: 'api' }] }],
  })
const open = ingress({
  name: 'open',
  annotations: { 'haproxy-ingress.github.io/cors-enable': 'true', 'haproxy-ingress.github.io/cors-allow-credentials': 'true' },
  rules: [{ host: 'open.test', paths: [{ path: '/', pathType: 'Prefix', service: 'api' }] }],
})
// A route of the listed host without CORS of its own.
const plain = ingress({ name: 'plain', rules: [{ host: 'api.test', paths: [{ path: '/plain', pathType: 'Prefix', service: 'api' }] }] })

const corsHeaders = (response: HttpResponse) =>
  Object.fromEntries(Object.entries(response.headers).filter(([name]) => name.startsWith('access-control-') || name === 'vary'))

describe('CORS', () => {
  let services: ServiceBackends
  let cluster: RuntimeCluster
  const call = (host: string, path: string, headers: Record<string, string | string[]>, method = 'GET') =>
    request(`http://127.0.0.1:${cluster.httpPort}${path}`, { method, headers: { host, ...headers } })
  const preflight = (host: string, origin: string, path = '/x') =>
    call(host, path, { origin, 'access-control-request-method': 'PUT', 'access-control-request-headers': 'x-token' }, 'OPTIONS')

  beforeAll(async () => {
    services = await startServices(['api'])
    cluster = await startRuntimeCluster([...services.objects, listed(`${APP}, https://*.example.org:8443`), open, plain], 'hapedge-cors')
  })

  afterAll(async () => {
    await cluster?.stop()
    await services?.close()
  })

  it('answers a preflight from a listed origin itself, 204 with the route’s policy, without reaching the Service', async () => {
    const before = services.backend('api').requests
    const answer = await preflight('api.test', APP)
    expect(answer.status).toBe(204)
    expect(corsHeaders(answer)).toEqual({
      'access-control-allow-origin': APP,
      'access-control-allow-methods': 'GET,PUT',
      'access-control-allow-headers': 'Content-Type,X-Token',
      'access-control-max-age': '600',
      'access-control-allow-credentials': 'true',
      vary: 'Origin',
    })
    expect(services.backend('api').requests).toBe(before)
  })

  it('adds the headers to the Service’s answer for a listed origin, echoing it with Vary: Origin', async () => {
    const answer = await call('api.test', '/x', { origin: APP })
    expect(answeredBy(answer)).toBe('api')
    expect(corsHeaders(answer)).toEqual({
      'access-control-allow-origin': APP,
      'access-control-allow-credentials': 'true',
      'access-control-expose-headers': 'X-Total',
      vary: 'Origin',
    })
  })

  it('allows one label of subdomain where the list has *., and no other origin: those get no CORS header, the preflight goes to the Service', async () => {
    expect(corsHeaders(await call('api.test', '/x', { origin: 'https://a.example.org:8443' }))['access-control-allow-origin']).toBe(
      'https://a.example.org:8443',
    )
    for (const origin of ['https://a.b.example.org:8443', 'https://example.org:8443', 'https://a.example.org', 'https://evil.test', 'null'])
      expect(corsHeaders(await call('api.test', '/x', { origin })), origin).toEqual({ vary: 'Origin' })
    const refused = await preflight('api.test', 'https://evil.test')
    expect({ by: answeredBy(refused), cors: corsHeaders(refused) }).toEqual({ by: 'api', cors: { vary: 'Origin' } })
  })

  it('never echoes a hostile Origin: a list of origins, two Origin headers, one that is not an origin, a subdomain that is not a DNS label', async () => {
    const lists = [`${APP}, https://evil.test`, `https://evil.test, ${APP}`, [APP, 'https://evil.test'], ['https://evil.test', APP]]
    const labels = ['https://a"b.example.org:8443', 'https://a%[env(HOME)].example.org:8443', 'https://a b.example.org:8443', 'https://a_b.example.org:8443']
    for (const origin of [...lists, ...labels, `${APP}"`, `${APP}/path`, `${APP}%0d%0aX-Evil:1`])
      expect(corsHeaders(await call('api.test', '/x', { origin })), String(origin)).toEqual({ vary: 'Origin' })
    const raw = await rawRequest(`http://127.0.0.1:${cluster.httpPort}`, '/x', { headers: { Host: 'api.test', Origin: `${APP}\tx` } })
    expect(raw.headers['access-control-allow-origin']).toBeUndefined()
  })

  it('a route of the host without CORS gets none, and any origin is answered * without credentials', async () => {
    expect(corsHeaders(await call('api.test', '/plain', { origin: APP }))).toEqual({})
    const anyOrigin = await call('open.test', '/x', { origin: 'https://whoever.test' })
    expect(corsHeaders(anyOrigin)).toEqual({ 'access-control-allow-origin': '*' })
    const anyPreflight = await preflight('open.test', 'https://whoever.test')
    expect(anyPreflight.status).toBe(204)
    expect(corsHeaders(anyPreflight)).toMatchObject({ 'access-control-allow-origin': '*', 'access-control-allow-methods': 'GET,PUT,POST,DELETE,PATCH,OPTIONS' })
    expect(corsHeaders(anyPreflight)['access-control-allow-credentials']).toBeUndefined()
  })

  it('applies a changed origin list with map edits, without a reload: the same worker then allows the new origin only', async () => {
    const workers = await cluster.workers()
    const { applied } = await cluster.atRuntime([modified(listed('https://new.example.com'))])
    expect(applied.maps.map(({ name }) => name)).toEqual([FILES.corsOriginsMap])
    expect(corsHeaders(await call('api.test', '/x', { origin: 'https://new.example.com' }))['access-control-allow-origin']).toBe('https://new.example.com')
    expect(corsHeaders(await call('api.test', '/x', { origin: APP }))).toEqual({ vary: 'Origin' })
    expect((await preflight('api.test', 'https://new.example.com')).status).toBe(204)
    expect(await cluster.workers()).toEqual(workers)
  })
})
