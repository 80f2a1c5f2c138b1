import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Agent } from '../../processes/agent/agent.ts'
import { harness } from '../functions/app/app-harness.ts'
import { makeCertificate, type Certificate } from '../support/certificates.ts'
import { coldContext } from '../support/contracts/cluster-apps.ts'
import { haproxyCheck } from '../support/haproxy.ts'
import { ingress, service, tlsSecret } from '../support/objects.ts'
import { makeTempDir, removeTempDir } from '../support/temp-dir.ts'
import { answeredBy, serveCluster, type ServedCluster } from './serve-cluster.ts'
import { startServices, type ServiceBackends } from './service-backends.ts'

/** TLS termination by SNI, HTTPS routing and the HTTP → HTTPS redirect, through the real HAProxy. */

const prefixAll = (service: string) => [{ path: '/', pathType: 'Prefix' as const, service }]

describe('TLS', () => {
  let certDir: string
  let certs: Record<'shop' | 'apps' | 'relaxed', Certificate>
  let services: ServiceBackends
  let cluster: ServedCluster

  beforeAll(async () => {
    certDir = await makeTempDir('hapedge-tls')
    const [shop, apps, relaxed] = await Promise.all([
      makeCertificate({ dir: certDir, hosts: ['shop.test'], name: 'shop' }),
      makeCertificate({ dir: certDir, hosts: ['*.apps.test'], name: 'apps' }),
      makeCertificate({ dir: certDir, hosts: ['relaxed.test'], name: 'relaxed' }),
    ])
    certs = { shop: shop!, apps: apps!, relaxed: relaxed! }
    services = await startServices(['shop', 'apps', 'relaxed', 'broken'])
    cluster = await serveCluster([
      ...services.objects,
      tlsSecret('shop-tls', certs.shop.certPem, certs.shop.keyPem),
      tlsSecret('apps-tls', certs.apps.certPem, certs.apps.keyPem),
      tlsSecret('relaxed-tls', certs.relaxed.certPem, certs.relaxed.keyPem),
      ingress({ name: 'shop', rules: [{ host: 'shop.test', paths: prefixAll('shop') }], tls: [{ hosts: ['shop.test'], secretName: 'shop-tls' }] }),
      ingress({ name: 'apps', rules: [{ host: '*.apps.test', paths: prefixAll('apps') }], tls: [{ hosts: ['*.apps.test'], secretName: 'apps-tls' }] }),
      ingress({
        name: 'relaxed',
        annotations: { 'hapedge.io/ssl-redirect': 'false' },
        rules: [{ host: 'relaxed.test', paths: prefixAll('relaxed') }],
        tls: [{ hosts: ['relaxed.test'], secretName: 'relaxed-tls' }],
      }),
      ingress({ name: 'broken', rules: [{ host: 'broken.test', paths: prefixAll('broken') }], tls: [{ hosts: ['broken.test'], secretName: 'absent' }] }),
    ])
  })

  afterAll(async () => {
    await cluster?.stop()
    await services?.close()
    if (certDir) await removeTempDir(certDir)
  })

  describe('certificate by SNI', () => {
    it.each([
      ['shop.test', 'shop', 'DNS:shop.test'],
      ['one.apps.test', 'apps', 'DNS:*.apps.test'],
      ['two.apps.test', 'apps', 'DNS:*.apps.test'],
      ['relaxed.test', 'relaxed', 'DNS:relaxed.test'],
    ] as const)('presents the certificate for %s (verified against that certificate as CA)', async (host, cert, altName) => {
      const response = await cluster.https(host, '/', host, { ca: certs[cert].certPem })
      expect(response.tlsPeer?.subjectAltName).toBe(altName)
      expect(response.status).toBe(200)
    })
  })

  describe('HTTPS routing', () => {
    it.each([
      ['shop.test', 'shop'],
      ['one.apps.test', 'apps'],
      ['relaxed.test', 'relaxed'],
    ])('routes https://%s to %s and tells it the scheme', async (host, backend) => {
      const response = await cluster.https(host, '/cart?id=7')
      expect(answeredBy(response)).toBe(backend)
      expect(response.json()).toMatchObject({ path: '/cart?id=7', host, headers: { 'x-forwarded-proto': 'https' } })
    })

    it('routes by the Host header, not by the SNI name', async () => {
      const response = await cluster.https('one.apps.test', '/', 'shop.test')
      expect(response.tlsPeer?.subjectAltName).toBe('DNS:shop.test')
      expect(answeredBy(response)).toBe('apps')
    })
  })

  describe('plain HTTP to a TLS host', () => {
    it.each([
      ['shop.test', '/cart/items?id=7&x=%2F'],
      ['one.apps.test', '/'],
    ])('redirects http://%s%s with 308 to the same URL on https', async (host, path) => {
      const before = services.backend('shop').requests + services.backend('apps').requests
      const response = await cluster.get(host, path)
      expect(response.status).toBe(308)
      const location = new URL(response.headers.location ?? '')
      expect(location.protocol).toBe('https:')
      expect(location.hostname).toBe(host)
      expect(['', String(cluster.httpsPort)]).toContain(location.port)
      expect(location.pathname + location.search).toBe(path)
      expect(services.backend('shop').requests + services.backend('apps').requests, 'no backend saw the plain request').toBe(before)
    })

    it.each(['2130706433/.apps.test', 'evil/.apps.test'])('never redirects to another host than a TLS host (Host %j)', async (host) => {
      const location = (await cluster.get(host, '/p')).headers.location
      // HAPEDGE BUG: the Host matches *.apps.test (see hosts.test.ts) and is echoed raw into the Location, so the
      // 308 sends the browser to https://2130706433/… (= 127.0.0.1) or https://evil/…: an open redirect.
      expect(location === undefined || new URL(location).hostname.endsWith('.apps.test'), location).toBe(true)
    })

    it('is served without redirect when hapedge.io/ssl-redirect is "false"', async () => {
      const response = await cluster.get('relaxed.test', '/page')
      expect(answeredBy(response)).toBe('relaxed')
      expect(response.json().headers['x-forwarded-proto']).toBe('http')
    })
  })

  describe('a TLS entry whose Secret is missing', () => {
    it('is rejected, naming the entry and the Secret', () => {
      expect(cluster.model.rejections).toEqual([{ object: 'Ingress default/broken', reason: expect.stringMatching(/^spec\.tls\[0\]: .*default\/absent/) }])
    })

    it('leaves a configuration that haproxy -c accepts', async () => {
      const check = await haproxyCheck(cluster.dir)
      expect(check.ok, check.output).toBe(true)
    })

    it('still serves the host over plain HTTP, without redirect', async () => {
      const response = await cluster.get('broken.test', '/x')
      expect(answeredBy(response)).toBe('broken')
    })
  })

  describe('a Secret whose certificate and key HAProxy could not load together', () => {
    const put = (object: unknown) => ({ type: 'MODIFIED', object })
    const stub = '-----BEGIN CERTIFICATE-----\nMAMCAQA=\n-----END CERTIFICATE-----\n'

    it('is rejected alone at the write, and every later change of the cluster is served', async () => {
      const server = harness()
      const token = await server.register('prod', { httpsBind: '127.0.0.1:8443' })
      const write = async (objects: unknown[]) => {
        const response = await server.events('prod', token, objects.map(put))
        expect(response.status).toBe(200)
        return (await response.json()) as { generation: number; committed: boolean; rejected: { object: string; reason: string }[] }
      }
      const shopIngress = ingress({
        name: 'shop',
        namespace: 'shop',
        rules: [{ host: 'shop.test', paths: prefixAll('shop') }],
        tls: [{ hosts: ['shop.test'], secretName: 'shop-tls' }],
      })
      const mismatched = tlsSecret('shop-tls', certs.shop.certPem, certs.apps.keyPem, 'shop')

      const first = await write([service('shop', [{ port: 80 }], 'shop'), shopIngress, mismatched])
      expect(first.rejected).toEqual([
        { object: 'Ingress shop/shop', reason: 'spec.tls[0]: Secret shop/shop-tls is invalid: tls.key does not match the certificate in tls.crt' },
        { object: 'Secret shop/shop-tls', reason: 'tls.key does not match the certificate in tls.crt' },
      ])
      // The Secret alone, now with a DER stub for a certificate: its write answers why.
      const alone = await write([tlsSecret('shop-tls', stub, certs.shop.keyPem, 'shop')])
      expect(alone.rejected).toEqual([
        { object: 'Secret shop/shop-tls', reason: expect.stringMatching(/^tls\.crt: CERTIFICATE block 1 is not an X\.509 certificate/) },
      ])

      // A harmless Ingress in another namespace, with a good Secret of its own.
      const other = await write([
        service('other', [{ port: 80 }], 'other'),
        tlsSecret('other-tls', certs.relaxed.certPem, certs.relaxed.keyPem, 'other'),
        ingress({
          name: 'other',
          namespace: 'other',
          rules: [{ host: 'relaxed.test', paths: prefixAll('other') }],
          tls: [{ hosts: ['relaxed.test'], secretName: 'other-tls' }],
        }),
      ])
      expect(other).toMatchObject({ committed: true, rejected: [] })

      // What an agent pulls of that generation is what HAProxy loads: shop.test over plain HTTP, relaxed.test with its certificate.
      const dir = join(certDir, 'agent')
      expect(await new Agent(server.sourceFor('prod', token), dir, coldContext()).sync()).toMatchObject({
        generation: other.generation,
        lastError: null,
      })
      const check = await haproxyCheck(join(dir, 'current'))
      expect(check.ok, check.output).toBe(true)
    })
  })
})
