import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FILES } from '../../core/render/files.ts'
import { fixtureCertificate } from '../support/fixtures.ts'
import { request } from '../support/http-client.ts'
import { ingress, tlsSecret } from '../support/objects.ts'
import { startRuntimeCluster, modified, type RuntimeCluster } from './runtime-cluster.ts'
import { answeredBy } from './serve-cluster.ts'
import { startServices, type ServiceBackends } from './service-backends.ts'

/**
 * A redirect's target and code, an app-root, an HSTS max-age and the HTTPS redirect's code changed
 * are applied by the agent through the runtime API (map edits), as the engine plans them: no
 * reload, the same worker, and the next requests answered with the new values.
 */

const moved = (url: string, code: string) =>
  ingress({
    name: 'moved',
    annotations: { 'nginx.ingress.kubernetes.io/permanent-redirect': url, 'nginx.ingress.kubernetes.io/permanent-redirect-code': code },
    rules: [{ host: 'moved.test', paths: [{ path: '/old', service: 'site' }] }],
  })
const secure = (annotations: Record<string, string>) =>
  ingress({
    name: 'secure',
    annotations,
    rules: [{ host: 'shop.example.com', paths: [{ path: '/', service: 'site' }] }],
    tls: [{ hosts: ['shop.example.com'], secretName: 'secure-tls' }],
  })

describe('redirects and HSTS change at runtime', () => {
  let services: ServiceBackends
  let cluster: RuntimeCluster

  const get = (host: string, path: string) => request(`http://127.0.0.1:${cluster.httpPort}${path}`, { headers: { host } })
  const getHttps = (host: string, path: string) => request(`https://127.0.0.1:${cluster.httpsPort}${path}`, { servername: host, headers: { host } })
  /** One change applied at runtime: what the agent did. */
  const atRuntime = async (...args: Parameters<RuntimeCluster['atRuntime']>) => (await cluster.atRuntime(...args)).applied

  beforeAll(async () => {
    services = await startServices(['site'])
    const cert = fixtureCertificate('shop.example.com')
    cluster = await startRuntimeCluster(
      [
        ...services.objects,
        tlsSecret('secure-tls', cert.certPem, cert.keyPem),
        moved('https://example.com/first', '301'),
        secure({ 'hapedge.io/hsts': 'true', 'hapedge.io/hsts-max-age': '600', 'hapedge.io/app-root': '/first' }),
      ],
      'hapedge-redirects-runtime',
    )
  })

  afterAll(async () => {
    await cluster?.stop()
    await services?.close()
  })

  it('serves the first values', async () => {
    const redirect = await get('moved.test', '/old/page')
    expect({ status: redirect.status, location: redirect.headers.location }).toEqual({ status: 301, location: 'https://example.com/first' })
    const https = await get('shop.example.com', '/x')
    expect({ status: https.status, location: https.headers.location }).toEqual({ status: 308, location: `https://shop.example.com:${cluster.httpsPort}/x` })
    const root = await getHttps('shop.example.com', '/')
    expect({ status: root.status, location: root.headers.location }).toEqual({ status: 302, location: 'https://shop.example.com/first' })
    const served = await getHttps('shop.example.com', '/x')
    expect(answeredBy(served)).toBe('site')
    expect(served.headers['strict-transport-security']).toBe('max-age=600')
  })

  it('applies a new redirect target and code with a map edit, without a reload', async () => {
    const before = await cluster.workers()
    const applied = await atRuntime([modified(moved('https://example.com/second?x=1', '308'))])
    // A Prefix path is looked up exactly, then as a prefix: both its entries change.
    expect(applied.maps.map(({ name }) => name).sort()).toEqual([FILES.locationExactMap, FILES.locationPrefixMap])
    const redirect = await get('moved.test', '/old')
    expect({ status: redirect.status, location: redirect.headers.location }).toEqual({ status: 308, location: 'https://example.com/second?x=1' })
    expect(await cluster.workers()).toEqual(before)
  })

  it('applies a new HSTS max-age, app-root and HTTPS redirect code with map edits, without a reload', async () => {
    const before = await cluster.workers()
    const applied = await atRuntime([
      modified(
        secure({
          'hapedge.io/hsts': 'true',
          'hapedge.io/hsts-max-age': '1200',
          'hapedge.io/hsts-preload': 'true',
          'hapedge.io/app-root': '/second',
          'hapedge.io/ssl-redirect-code': '301',
        }),
      ),
    ])
    expect(applied.maps.map(({ name }) => name).sort()).toEqual([FILES.appRootMap, FILES.hstsMap, FILES.redirectMap].sort())
    const https = await get('shop.example.com', '/x')
    expect({ status: https.status, location: https.headers.location }).toEqual({ status: 301, location: `https://shop.example.com:${cluster.httpsPort}/x` })
    const root = await getHttps('shop.example.com', '/')
    expect({ status: root.status, location: root.headers.location }).toEqual({ status: 302, location: 'https://shop.example.com/second' })
    expect((await getHttps('shop.example.com', '/x')).headers['strict-transport-security']).toBe('max-age=1200; preload')
    expect(await cluster.workers()).toEqual(before)
  })
})
