import { describe, expect, it } from 'vitest'
import { LiveCluster } from '../../../core/incremental/live-cluster.ts'
import { FILES } from '../../../core/render/files.ts'
import { added, app } from '../../support/contracts/cluster-apps.ts'
import { configMap, ingress, tlsSecret } from '../../support/objects.ts'
import { olderSnapshot, writeAfterUpgrade } from '../../support/older-layout.ts'
import { fixtureCertificate } from '../../support/fixtures.ts'

/** The layout before HSTS was read from the settings: `hsts` was an unknown setting, reported and not rendered. */
const BEFORE_HSTS_SETTINGS = 35

describe('a snapshot written before HSTS was read from the settings', () => {
  it('sends HSTS on the hosts whose Ingress says nothing of it at its next write, byte-equal to a fresh snapshot', () => {
    const shop = fixtureCertificate('shop.example.com')
    const objects = [
      ...app(1),
      tlsSecret('shop-tls', shop.certPem, shop.keyPem),
      ingress({
        name: 'site',
        rules: [{ host: 'shop.example.com', paths: [{ service: 'app-1' }] }],
        tls: [{ hosts: ['shop.example.com'], secretName: 'shop-tls' }],
      }),
    ]
    const fresh = new LiveCluster()
    fresh.apply([...objects, configMap({ hsts: 'true' })].map(added))
    const older = new LiveCluster()
    older.apply(objects.map(added))
    writeAfterUpgrade(olderSnapshot(older, fresh, { layout: BEFORE_HSTS_SETTINGS, objects: ['ConfigMap/hapedge/hapedge'] }), older, fresh)
    expect(fresh.files().get(FILES.hstsMap)).toContain('shop.example.com max-age=31536000')
  })
})
