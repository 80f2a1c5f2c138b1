import { describe, expect, it } from 'vitest'
import { LiveCluster } from '../../../core/incremental/live-cluster.ts'
import { FILES } from '../../../core/render/files.ts'
import { added, app } from '../../support/contracts/cluster-apps.ts'
import { fixtureCertificate } from '../../support/fixtures.ts'
import { authSecret, ingress, tlsSecret } from '../../support/objects.ts'
import { olderSnapshot, writeAfterUpgrade } from '../../support/older-layout.ts'

/** The layout before auth-tls-match-cn was honoured: an Ingress asking for it was refused, and client-cn.map did not exist. */
const BEFORE_MATCH_CN = 29

describe('a snapshot written before auth-tls-match-cn was honoured', () => {
  it('serves the Ingress it refused at its next write, with the subject to match in a map it did not have, byte-equal to a fresh snapshot', () => {
    const shop = fixtureCertificate('shop.example.com')
    const site = (matchCn: string) =>
      ingress({
        name: 'shop',
        annotations: { 'nginx.ingress.kubernetes.io/auth-tls-secret': 'clients', 'nginx.ingress.kubernetes.io/auth-tls-match-cn': matchCn },
        rules: [{ host: 'shop.example.com', paths: [{ service: 'app-1' }] }],
        tls: [{ hosts: ['shop.example.com'], secretName: 'shop-tls' }],
      })
    const objects = [...app(1), tlsSecret('shop-tls', shop.certPem, shop.keyPem), authSecret('clients', { 'ca.crt': shop.certPem })]
    const fresh = new LiveCluster()
    fresh.apply([...objects, site('CN=(alice|bob)')].map(added))
    // The older version refused every auth-tls-match-cn, as this one refuses a value outside the safe subset.
    const older = new LiveCluster()
    older.apply([...objects, site('CN=(a+)+')].map(added))
    const old = olderSnapshot(older, fresh, { layout: BEFORE_MATCH_CN, objects: ['Ingress/default/shop'], missingFiles: [FILES.clientCnMap] })
    writeAfterUpgrade(old, older, fresh)
    expect(fresh.files().get(FILES.clientCnMap)).toBe('^shop\\.example\\.com(?#0)/.*(?:CN=(alice|bob)) match\n^shop\\.example\\.com(?#1)/ refuse\n')
  })
})
