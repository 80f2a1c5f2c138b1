import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { makeCertificate } from '../support/certificates.ts'
import { gateway, gatewayClass, httpRoute } from '../support/gateway-objects.ts'
import { tlsSecret } from '../support/objects.ts'
import { makeTempDir, removeTempDir } from '../support/temp-dir.ts'
import { answeredBy, serveCluster, type ServedCluster } from './serve-cluster.ts'
import { startServices, type ServiceBackends } from './service-backends.ts'

/**
 * Routes that only HTTPS listeners take are never served in clear on the HTTP bind: plain HTTP is
 * redirected to HTTPS also when the listener has no hostname, or when its certificate does not
 * resolve (a Secret that does not exist, or of another namespace no ReferenceGrant permits), which the listener reports.
 */
describe('routes of HTTPS listeners only, through HAProxy', () => {
  let services: ServiceBackends
  let cluster: ServedCluster
  let certDir: string

  beforeAll(async () => {
    certDir = await makeTempDir('hapedge-gateway-https-only')
    const certificate = await makeCertificate({ dir: certDir, hosts: ['any.gw.test'], name: 'any' })
    services = await startServices(['any', 'missing', 'elsewhere'])
    const edge = gateway('edge', [
      { name: 'any', protocol: 'HTTPS', certificate: 'any-tls' },
      { name: 'missing', protocol: 'HTTPS', hostname: 'missing.gw.test', certificate: 'no-such-secret' },
      { name: 'elsewhere', protocol: 'HTTPS', hostname: 'elsewhere.gw.test', certificate: 'any-tls' },
    ])
    // A certificate of another namespace that no ReferenceGrant there permits (RefNotPermitted on the listener).
    const elsewhere = edge.spec.listeners[2] as unknown as { tls: { certificateRefs: { namespace?: string }[] } }
    elsewhere.tls.certificateRefs[0]!.namespace = 'certs'
    cluster = await serveCluster([
      ...services.objects,
      tlsSecret('any-tls', certificate.certPem, certificate.keyPem),
      gatewayClass(),
      edge,
      httpRoute({ name: 'any', parents: [{ name: 'edge', sectionName: 'any' }], rules: [{ backends: [{ service: 'any' }] }] }),
      httpRoute({ name: 'missing', parents: [{ name: 'edge', sectionName: 'missing' }], rules: [{ backends: [{ service: 'missing' }] }] }),
      httpRoute({ name: 'elsewhere', parents: [{ name: 'edge', sectionName: 'elsewhere' }], rules: [{ backends: [{ service: 'elsewhere' }] }] }),
    ])
  })

  afterAll(async () => {
    await cluster?.stop()
    await services?.close()
    if (certDir) await removeTempDir(certDir)
  })

  it('an HTTPS listener without hostname serves its routes on HTTPS, and redirects their plain HTTP requests', async () => {
    expect(answeredBy(await cluster.https('any.gw.test', '/'))).toBe('any')
    const plain = await cluster.get('other.gw.test', '/x?y=1')
    const location = new URL(String(plain.headers.location))
    expect([plain.status, location.protocol, location.hostname, `${location.pathname}${location.search}`]).toEqual([308, 'https:', 'other.gw.test', '/x?y=1'])
  })

  it('an HTTPS listener whose certificate does not resolve does not serve its routes in clear', async () => {
    for (const host of ['missing.gw.test', 'elsewhere.gw.test']) expect((await cluster.get(host, '/')).status).toBe(308)
    const reasons = cluster.model.rejections.map((rejection) => `${rejection.object}: ${rejection.reason}`).join('\n')
    expect(reasons).toContain('spec.listeners[1].tls.certificateRefs[0]')
    expect(reasons).toContain('spec.listeners[2].tls.certificateRefs[0]')
  })
})
