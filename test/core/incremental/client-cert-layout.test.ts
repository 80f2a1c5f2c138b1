import { describe, expect, it } from 'vitest'
import { LiveCluster } from '../../../core/incremental/live-cluster.ts'
import { FILES } from '../../../core/render/files.ts'
import { upperHex } from '../../../core/tls/distinguished-name.ts'
import { added, app } from '../../support/contracts/cluster-apps.ts'
import { fixtureCertificate } from '../../support/fixtures.ts'
import { authSecret, ingress, tlsSecret } from '../../support/objects.ts'
import { olderSnapshot, writeAfterUpgrade } from '../../support/older-layout.ts'
import { syntheticCertificatePem } from '../../support/synthetic-certificates.ts'

/** `/CN=shop.example.com`, the fixture's subject (it is self-signed), as HAProxy's ssl_c_i_dn,hex gives it. */
const SHOP_ISSUER = upperHex(new TextEncoder().encode('/CN=shop.example.com'))

/** The layout before client certificates were honoured: an Ingress asking for them was refused, its CA Secret not indexed, and the client-cert map did not exist. */
const BEFORE_CLIENT_CERTS = 25

describe('a snapshot written before client certificates were honoured', () => {
  it('serves its Ingresses that ask for them at its next write, byte-equal to a fresh snapshot', () => {
    const shop = fixtureCertificate('shop.example.com')
    const site = (annotations: Record<string, string>) =>
      ingress({
        name: 'shop',
        annotations,
        rules: [{ host: 'shop.example.com', paths: [{ service: 'app-1' }] }],
        tls: [{ hosts: ['shop.example.com'], secretName: 'shop-tls' }],
      })
    const objects = [...app(1), tlsSecret('shop-tls', shop.certPem, shop.keyPem), authSecret('clients', { 'ca.crt': shop.certPem })]
    const fresh = new LiveCluster()
    fresh.apply([...objects, site({ 'nginx.ingress.kubernetes.io/auth-tls-secret': 'clients' })].map(added))
    // What the older version derived: the Ingress refused, as an annotation it does not honour still refuses it.
    const older = new LiveCluster()
    older.apply([...objects, site({ 'nginx.ingress.kubernetes.io/auth-tls-match-cn': 'CN=alice' })].map(added))
    const old = olderSnapshot(older, fresh, { layout: BEFORE_CLIENT_CERTS, objects: ['Ingress/default/shop'], missingFiles: [FILES.clientCertMap] })
    writeAfterUpgrade(old, older, fresh)
    expect(fresh.files().get(FILES.clientCertMap)).toBe(`shop.example.com on;0;\nshop.example.com/${SHOP_ISSUER} issuer\n`)
    expect(fresh.files().get(FILES.crtList)).toContain('[ca-file client-ca/default_clients/default_shop-tls.pem verify optional] shop.example.com')
  })
})

/** The layout before auth-tls-verify-depth was honoured: a host's client-cert entry had no issuers beside it. */
const BEFORE_VERIFY_DEPTH = 26

describe('a snapshot written before auth-tls-verify-depth was honoured', () => {
  it('writes its hosts’ issuers at its next write, byte-equal to a fresh snapshot', () => {
    const shop = fixtureCertificate('shop.example.com')
    const objects = [
      ...app(1),
      tlsSecret('shop-tls', shop.certPem, shop.keyPem),
      ingress({
        name: 'shop',
        annotations: { 'nginx.ingress.kubernetes.io/auth-tls-secret': 'clients' },
        rules: [{ host: 'shop.example.com', paths: [{ service: 'app-1' }] }],
        tls: [{ hosts: ['shop.example.com'], secretName: 'shop-tls' }],
      }),
    ]
    const fresh = new LiveCluster()
    fresh.apply([...objects, authSecret('clients', { 'ca.crt': shop.certPem })].map(added))
    // What the older version rendered: the host's entry alone, as a bundle that allows no issuer renders it.
    const older = new LiveCluster()
    const noRoot = syntheticCertificatePem([['2.5.4.3', 'issuing']], [['2.5.4.3', 'elsewhere']])
    older.apply([...objects, authSecret('clients', { 'ca.crt': noRoot })].map(added))
    expect(older.files().get(FILES.clientCertMap)).toBe('shop.example.com on;0;\n')
    const old = olderSnapshot(older, fresh, { layout: BEFORE_VERIFY_DEPTH, objects: ['Secret/default/clients'] })
    writeAfterUpgrade(old, older, fresh)
    expect(fresh.files().get(FILES.clientCertMap)).toBe(`shop.example.com on;0;\nshop.example.com/${SHOP_ISSUER} issuer\n`)
  })
})
