import { describe, expect, it } from 'vitest'
import { LiveCluster } from '../../../core/incremental/live-cluster.ts'
import { FILES } from '../../../core/render/files.ts'
import { added, app } from '../../support/contracts/cluster-apps.ts'
import { fixtureCertificate } from '../../support/fixtures.ts'
import { authSecret, ingress, tlsSecret } from '../../support/objects.ts'
import { olderSnapshot, writeAfterUpgrade } from '../../support/older-layout.ts'

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
    expect(fresh.files().get(FILES.clientCertMap)).toBe('shop.example.com on;0;\n')
    expect(fresh.files().get(FILES.crtList)).toContain('[ca-file client-ca/default_clients/default_shop-tls.pem verify optional] shop.example.com')
  })
})
