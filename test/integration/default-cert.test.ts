import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { makeCertificate, type Certificate } from '../support/certificates.ts'
import { configMap, ingress, service, tlsSecret } from '../support/objects.ts'
import { makeTempDir, removeTempDir } from '../support/temp-dir.ts'
import { serveCluster, type ServedCluster } from './serve-cluster.ts'
import { handshake } from './tls-handshake.ts'

/**
 * The certificate served to a name no Ingress claims, and without SNI: the settings'
 * default-ssl-certificate when it names a valid TLS Secret, and otherwise none (the handshake is
 * refused), never another tenant's, which would name that tenant's hosts.
 */

const prefixAll = (name: string) => [{ path: '/', pathType: 'Prefix' as const, service: name }]

describe('the default certificate', () => {
  let certDir: string
  let certs: Record<'shop' | 'apps' | 'fallback', Certificate>
  const clusters: ServedCluster[] = []

  const tenants = () => [
    service('shop'),
    service('apps'),
    tlsSecret('shop-tls', certs.shop.certPem, certs.shop.keyPem),
    tlsSecret('apps-tls', certs.apps.certPem, certs.apps.keyPem),
    ingress({ name: 'shop', rules: [{ host: 'shop.test', paths: prefixAll('shop') }], tls: [{ hosts: ['shop.test'], secretName: 'shop-tls' }] }),
    ingress({ name: 'apps', rules: [{ host: 'one.apps.test', paths: prefixAll('apps') }], tls: [{ hosts: ['one.apps.test'], secretName: 'apps-tls' }] }),
  ]
  const serve = async (objects: unknown[]) => {
    const cluster = await serveCluster(objects)
    clusters.push(cluster)
    return cluster
  }

  beforeAll(async () => {
    certDir = await makeTempDir('hapedge-default-cert')
    const [shop, apps, fallback] = await Promise.all([
      makeCertificate({ dir: certDir, hosts: ['shop.test'], name: 'shop' }),
      makeCertificate({ dir: certDir, hosts: ['one.apps.test'], name: 'apps' }),
      makeCertificate({ dir: certDir, hosts: ['fallback.invalid'], name: 'fallback' }),
    ])
    certs = { shop, apps, fallback }
  })

  afterAll(async () => {
    for (const cluster of clusters) await cluster.stop()
    if (certDir) await removeTempDir(certDir)
  })

  describe('without the setting', () => {
    let cluster: ServedCluster
    beforeAll(async () => {
      cluster = await serve(tenants())
    })

    it.each([
      ['shop.test', 'DNS:shop.test'],
      ['one.apps.test', 'DNS:one.apps.test'],
    ])('serves %s its own certificate', async (name, served) => {
      expect(await handshake(cluster.httpsPort, name)).toEqual({ served })
    })

    it.each([
      ['a name no Ingress claims', 'unknown.test'],
      ['no name at all', undefined],
    ])('refuses the handshake for %s instead of serving a tenant’s certificate', async (_, name) => {
      const result = await handshake(cluster.httpsPort, name)
      expect(result.served).toBeUndefined()
      expect(result.error).toBeDefined()
    })
  })

  describe('with default-ssl-certificate naming a TLS Secret', () => {
    let cluster: ServedCluster
    beforeAll(async () => {
      cluster = await serve([
        ...tenants(),
        tlsSecret('fallback', certs.fallback.certPem, certs.fallback.keyPem, 'edge'),
        configMap({ 'default-ssl-certificate': 'edge/fallback' }),
      ])
    })

    it.each([
      ['a name no Ingress claims', 'unknown.test'],
      ['no name at all', undefined],
    ])('serves it for %s', async (_, name) => {
      expect(await handshake(cluster.httpsPort, name)).toEqual({ served: 'DNS:fallback.invalid' })
    })

    it('still serves each Ingress its own certificate', async () => {
      expect(await handshake(cluster.httpsPort, 'shop.test')).toEqual({ served: 'DNS:shop.test' })
      expect(await handshake(cluster.httpsPort, 'one.apps.test')).toEqual({ served: 'DNS:one.apps.test' })
    })

    it('serves it even when no Ingress has a certificate', async () => {
      const alone = await serve([
        service('shop'),
        ...tenants().slice(4, 5),
        tlsSecret('fallback', certs.fallback.certPem, certs.fallback.keyPem, 'edge'),
        configMap({ 'default-ssl-certificate': 'edge/fallback' }),
      ])
      expect(await handshake(alone.httpsPort, 'shop.test')).toEqual({ served: 'DNS:fallback.invalid' })
      expect(alone.model.rejections.filter((rejection) => rejection.object.startsWith('ConfigMap'))).toEqual([])
    })
  })

  describe.each([
    ['a Secret that does not exist', [], /Secret edge\/fallback does not exist/],
    ['a Secret whose certificate does not load', [tlsSecret('fallback', 'not a certificate', 'not a key', 'edge')], /Secret edge\/fallback/],
  ])('with default-ssl-certificate naming %s', (_, secrets, reason) => {
    let cluster: ServedCluster
    beforeAll(async () => {
      cluster = await serve([...tenants(), ...secrets, configMap({ 'default-ssl-certificate': 'edge/fallback' })])
    })

    it('reports it on the ConfigMap, and still serves every Ingress', async () => {
      expect(cluster.model.rejections).toContainEqual({ object: 'ConfigMap hapedge/hapedge', reason: expect.stringMatching(reason) })
      expect(await handshake(cluster.httpsPort, 'shop.test')).toEqual({ served: 'DNS:shop.test' })
    })

    it('serves no tenant’s certificate to an unknown name', async () => {
      expect((await handshake(cluster.httpsPort, 'unknown.test')).served).toBeUndefined()
    })
  })

  it('reads a value without its namespace as an error of the setting', async () => {
    const cluster = await serve([...tenants(), configMap({ 'default-ssl-certificate': 'fallback' })])
    expect(cluster.model.rejections).toContainEqual({
      object: 'ConfigMap hapedge/hapedge',
      reason: expect.stringContaining('data["default-ssl-certificate"]: "fallback" must name its namespace too'),
    })
  })
})
