import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { REFUSED_HEADER } from '../../core/render/render-frontend.ts'
import { makeCertificate } from '../support/certificates.ts'
import { configMap, ingress, tlsSecret } from '../support/objects.ts'
import { makeTempDir, removeTempDir } from '../support/temp-dir.ts'
import { answeredBy, serveCluster, type ServedCluster } from './serve-cluster.ts'
import { startServices, type ServiceBackends } from './service-backends.ts'

/**
 * Annotations through the real HAProxy: access control hapedge does not render fails closed (the
 * Ingress's routes answer 503 with a reason header, never its Service), while other Ingresses on
 * the same host keep serving; ssl-redirect is honoured from every controller's spelling.
 */

const prefix = (path: string, service: string) => ({ path, pathType: 'Prefix' as const, service })

describe('annotations', () => {
  let certDir: string
  let services: ServiceBackends
  let cluster: ServedCluster

  beforeAll(async () => {
    certDir = await makeTempDir('hapedge-annotations')
    const hosts = ['plain.test', 'redirected.test', 'precedence.test']
    const certs = await Promise.all(hosts.map((host) => makeCertificate({ dir: certDir, hosts: [host], name: host.split('.')[0]! })))
    services = await startServices(['site', 'admin', 'office', 'plain', 'redirected', 'precedence'])
    const tls = (host: string, i: number) => tlsSecret(`${host.split('.')[0]}-tls`, certs[i]!.certPem, certs[i]!.keyPem)
    cluster = await serveCluster([
      ...services.objects,
      ...hosts.map(tls),
      // HTTPS to a host without a certificate of its own is served the default one (strict-sni otherwise).
      configMap({ 'default-ssl-certificate': 'default/plain-tls' }),
      ingress({ name: 'site', rules: [{ host: 'shop.test', paths: [prefix('/', 'site')] }] }),
      ingress({
        name: 'admin',
        annotations: { 'nginx.ingress.kubernetes.io/enable-modsecurity': 'true' },
        rules: [{ host: 'shop.test', paths: [prefix('/admin', 'admin')] }],
      }),
      ingress({ name: 'office-public', rules: [{ host: 'office.test', paths: [prefix('/', 'site')] }] }),
      ingress({
        name: 'office',
        annotations: { 'nginx.ingress.kubernetes.io/enable-modsecurity': 'true' },
        rules: [{ host: 'office.test', paths: [prefix('/internal', 'office')] }],
      }),
      ingress({
        name: 'plain',
        annotations: { 'ingress.kubernetes.io/ssl-redirect': 'false' },
        rules: [{ host: 'plain.test', paths: [prefix('/', 'plain')] }],
        tls: [{ hosts: ['plain.test'], secretName: 'plain-tls' }],
      }),
      ingress({
        name: 'redirected',
        rules: [{ host: 'redirected.test', paths: [prefix('/', 'redirected')] }],
        tls: [{ hosts: ['redirected.test'], secretName: 'redirected-tls' }],
      }),
      ingress({
        name: 'precedence',
        annotations: { 'hapedge.io/ssl-redirect': 'true', 'nginx.ingress.kubernetes.io/ssl-redirect': 'false' },
        rules: [{ host: 'precedence.test', paths: [prefix('/', 'precedence')] }],
        tls: [{ hosts: ['precedence.test'], secretName: 'precedence-tls' }],
      }),
    ])
  })

  afterAll(async () => {
    await cluster?.stop()
    await services?.close()
    if (certDir) await removeTempDir(certDir)
  })

  describe('access control hapedge does not render fails closed', () => {
    it.each([
      ['a web application firewall', 'shop.test', '/admin', 'admin', '/administrator'],
      ['a web application firewall, below its path', 'shop.test', '/admin/users?id=1', 'admin', '/'],
      ['a web application firewall', 'office.test', '/internal', 'office', '/'],
    ])("%s: 503 with the reason header, never its Service, while the host's other Ingress serves", async (_, host, path, service, other) => {
      for (const send of [cluster.get, cluster.https]) {
        const response = await send(host, path)
        expect(response.status).toBe(503)
        expect(response.headers[REFUSED_HEADER.toLowerCase()]).toMatch(/access control/)
        expect(response.body).toMatch(/^503 Service Unavailable: /)
      }
      expect(services.backend(service).requests).toBe(0)
      expect(answeredBy(await cluster.get(host, other))).toBe('site')
    })

    it('reports the refused Ingresses rejected, naming the annotations', () => {
      const reasons = new Map(cluster.model.rejections.map((rejection) => [rejection.object, rejection.reason]))
      expect(reasons.get('Ingress default/admin')).toContain('nginx.ingress.kubernetes.io/enable-modsecurity')
      expect(reasons.get('Ingress default/office')).toContain('nginx.ingress.kubernetes.io/enable-modsecurity')
    })
  })

  describe('ssl-redirect from any spelling', () => {
    it('serves plain HTTP without the 308 when ingress.kubernetes.io/ssl-redirect is "false"', async () => {
      expect(answeredBy(await cluster.get('plain.test', '/x'))).toBe('plain')
      expect(answeredBy(await cluster.https('plain.test', '/x'))).toBe('plain')
    })

    it('redirects by default, and hapedge.io/ takes precedence over another spelling that disagrees', async () => {
      for (const host of ['redirected.test', 'precedence.test']) {
        const response = await cluster.get(host, '/x')
        expect(response.status, host).toBe(308)
        expect(response.headers.location, host).toBe(`https://${host}:${cluster.httpsPort}/x`)
      }
      expect(cluster.model.warnings).toContainEqual({
        object: 'Ingress default/precedence',
        annotation: 'nginx.ingress.kubernetes.io/ssl-redirect',
        reason: expect.stringContaining('disagrees with hapedge.io/ssl-redirect'),
      })
    })
  })
})
