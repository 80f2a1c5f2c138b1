import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AUTH_TIMEOUT_MS } from '../../core/render/external-auth-lua.ts'
import { FILES } from '../../core/render/files.ts'
import { freePort } from '../support/free-port.ts'
import { request } from '../support/http-client.ts'
import { ingress } from '../support/objects.ts'
import { modified, type RuntimeCluster, startRuntimeCluster } from './runtime-cluster.ts'
import { answeredBy, serveCluster, type ServedCluster } from './serve-cluster.ts'
import { startServices, type ServiceBackends } from './service-backends.ts'

/**
 * External authentication through the real HAProxy and the Lua hapedge ships: a loopback auth
 * service decides by the request's `Authorization` (as an auth service would by a token or a
 * cookie); what it answers is what the client gets, and an auth service that is down fails closed.
 */

interface AuthService {
  url: string
  /** The requests it was asked, newest last. */
  asked: { method: string; url: string; headers: IncomingHttpHeaders }[]
  close(): Promise<void>
}

/**
 * `Bearer alice` → 200 with X-Auth-User, `Bearer mallory` → 403, anything else → 401 with a
 * challenge; on `/broken` a 502 whoever asks, and on `/hanging` no answer at all.
 */
async function startAuthService(): Promise<AuthService> {
  const asked: AuthService['asked'] = []
  const server: Server = createServer((req, res) => {
    asked.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers })
    if (req.url === '/hanging') return
    if (req.url === '/broken') return void res.writeHead(502).end()
    const token = req.headers.authorization
    if (token === 'Bearer alice') res.writeHead(200, { 'X-Auth-User': 'alice', 'X-Not-Copied': 'secret' })
    else if (token === 'Bearer mallory') res.writeHead(403)
    else res.writeHead(401, { 'WWW-Authenticate': 'Bearer realm="shop"' })
    res.end()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    asked,
    close: () => {
      server.closeAllConnections()
      return new Promise((resolve) => server.close(() => resolve()))
    },
  }
}

describe('external authentication (auth-url)', () => {
  let services: ServiceBackends
  let auth: AuthService
  let cluster: ServedCluster

  beforeAll(async () => {
    services = await startServices(['site', 'account', 'down', 'public'])
    auth = await startAuthService()
    const closedPort = await freePort()
    cluster = await serveCluster([
      ...services.objects,
      ingress({
        name: 'site',
        annotations: {
          'nginx.ingress.kubernetes.io/auth-url': `${auth.url}/verify`,
          'nginx.ingress.kubernetes.io/auth-response-headers': 'X-Auth-User, X-Auth-Email',
        },
        rules: [{ host: 'shop.test', paths: [{ path: '/', service: 'site' }] }],
      }),
      ingress({
        name: 'account',
        annotations: {
          'hapedge.io/auth-url': `${auth.url}/verify`,
          'hapedge.io/auth-signin': 'https://login.test/start',
        },
        rules: [{ host: 'shop.test', paths: [{ path: '/account', service: 'account' }] }],
      }),
      ingress({
        name: 'public',
        rules: [{ host: 'shop.test', paths: [{ path: '/account/public', service: 'public' }] }],
      }),
      ingress({
        name: 'narrow',
        annotations: { 'hapedge.io/auth-url': `${auth.url}/verify`, 'hapedge.io/auth-request-headers': 'Authorization' },
        rules: [{ host: 'narrow.test', paths: [{ path: '/', service: 'public' }] }],
      }),
      ingress({
        name: 'broken',
        annotations: { 'nginx.ingress.kubernetes.io/auth-url': `${auth.url}/broken` },
        rules: [{ host: 'broken.test', paths: [{ path: '/', service: 'down' }] }],
      }),
      ingress({
        name: 'hanging',
        annotations: { 'nginx.ingress.kubernetes.io/auth-url': `${auth.url}/hanging` },
        rules: [{ host: 'hanging.test', paths: [{ path: '/', service: 'down' }] }],
      }),
      ingress({
        name: 'down',
        annotations: { 'nginx.ingress.kubernetes.io/auth-url': `http://127.0.0.1:${closedPort}/verify` },
        rules: [{ host: 'down.test', paths: [{ path: '/', service: 'down' }] }],
      }),
    ])
  })

  afterAll(async () => {
    await cluster?.stop()
    await auth?.close()
    await services?.close()
  })

  it('lets a request the auth service answers 2xx through, with the named answer header and not the client’s own', async () => {
    const answer = await cluster.get('shop.test', '/cart?x=1', {
      headers: { authorization: 'Bearer alice', 'x-auth-user': 'forged', 'x-auth-email': 'forged@example.com' },
    })
    expect(answeredBy(answer)).toBe('site')
    const received = JSON.parse(answer.body).headers
    expect(received['x-auth-user']).toBe('alice')
    expect(received['x-not-copied']).toBeUndefined()
    // Named but not in the auth service's answer: the client's own is removed all the same.
    expect(received['x-auth-email']).toBeUndefined()
    // The auth service was asked with the client's headers and the original request, without a body.
    const request = auth.asked.at(-1)!
    expect({ method: request.method, url: request.url }).toEqual({ method: 'GET', url: '/verify' })
    expect(request.headers.authorization).toBe('Bearer alice')
    expect(request.headers['x-original-uri']).toBe('/cart?x=1')
    expect(request.headers['x-original-url']).toBe('http://shop.test/cart?x=1')
    expect(request.headers['x-original-method']).toBe('GET')
  })

  it('answers 401 with the auth service’s challenge, and 403, without reaching the Service', async () => {
    const unauthorized = await cluster.get('shop.test', '/cart')
    expect(unauthorized.status).toBe(401)
    expect(unauthorized.headers['www-authenticate']).toBe('Bearer realm="shop"')
    expect((await cluster.get('shop.test', '/cart', { headers: { authorization: 'Bearer mallory' } })).status).toBe(403)
  })

  it('redirects a 401 to auth-signin with the original URL in rd, as ingress-nginx does', async () => {
    const answer = await cluster.get('shop.test', '/account/orders?page=2')
    expect(answer.status).toBe(302)
    expect(answer.headers.location).toBe('https://login.test/start?rd=http://shop.test%2Faccount%2Forders%3Fpage%3D2')
    expect(answeredBy(await cluster.get('shop.test', '/account/orders', { headers: { authorization: 'Bearer alice' } }))).toBe('account')
  })

  it('sends the auth service only the client headers auth-request-headers names, beside its own', async () => {
    const answer = await cluster.get('narrow.test', '/x', { headers: { authorization: 'Bearer alice', cookie: 'session=1' } })
    expect(answeredBy(answer)).toBe('public')
    const { headers } = auth.asked.at(-1)!
    expect({ authorization: headers.authorization, cookie: headers.cookie, uri: headers['x-original-uri'] }).toEqual({
      authorization: 'Bearer alice',
      cookie: undefined,
      uri: '/x',
    })
  })

  it('leaves another Ingress’s longer path on the same host unauthenticated', async () => {
    expect(answeredBy(await cluster.get('shop.test', '/account/public/x'))).toBe('public')
  })

  it('fails closed with a 500 when the auth service cannot be reached', async () => {
    const answer = await cluster.get('down.test', '/', { headers: { authorization: 'Bearer alice' } })
    expect(answer.status).toBe(500)
    expect(services.backend('down').requests).toBe(0)
  })

  it('fails closed with a 500 when the auth service answers a 5xx, or does not answer in time', async () => {
    // Past the script's AUTH_TIMEOUT_MS: the client waits longer than HAProxy does.
    for (const host of ['broken.test', 'hanging.test'])
      expect((await cluster.get(host, '/', { headers: { authorization: 'Bearer alice' }, timeoutMs: 3 * AUTH_TIMEOUT_MS })).status, host).toBe(500)
    expect(services.backend('down').requests).toBe(0)
  })
})

describe('external authentication changed at runtime', () => {
  let services: ServiceBackends
  let auth: AuthService
  let cluster: RuntimeCluster
  const guarded = (url: string) =>
    ingress({ name: 'site', annotations: { 'hapedge.io/auth-url': url }, rules: [{ host: 'shop.test', paths: [{ path: '/', service: 'site' }] }] })
  const get = (init: { headers?: Record<string, string> } = {}) =>
    request(`http://127.0.0.1:${cluster.httpPort}/`, { ...init, headers: { host: 'shop.test', ...init.headers } })

  beforeAll(async () => {
    services = await startServices(['site'])
    auth = await startAuthService()
    cluster = await startRuntimeCluster(
      [...services.objects, ingress({ name: 'site', rules: [{ host: 'shop.test', paths: [{ path: '/', service: 'site' }] }] })],
      'hapedge-external-auth-runtime',
    )
  })

  afterAll(async () => {
    await cluster?.stop()
    await auth?.close()
    await services?.close()
  })

  it('asks an auth service from the first Ingress that names one, and another once it is changed, with map edits and no reload', async () => {
    expect(answeredBy(await get())).toBe('site')
    const before = await cluster.workers()
    const asked = await cluster.atRuntime([modified(guarded(`${auth.url}/verify`))])
    expect(asked.applied.maps.map(({ map }) => map)).toEqual([FILES.externalAuthPrefixMap])
    expect((await get()).status).toBe(401)
    expect(answeredBy(await get({ headers: { authorization: 'Bearer alice' } }))).toBe('site')
    await cluster.atRuntime([modified(guarded(`${auth.url}/broken`))])
    expect((await get({ headers: { authorization: 'Bearer alice' } })).status).toBe(500)
    expect(auth.asked.at(-1)!.url).toBe('/broken')
    expect(await cluster.workers()).toEqual(before)
  })
})
