import { describe, expect, it } from 'vitest'
import { LiveCluster } from '../../../core/incremental/live-cluster.ts'
import { FILES } from '../../../core/render/files.ts'
import { added, app } from '../../support/contracts/cluster-apps.ts'
import { fixtureCertificate } from '../../support/fixtures.ts'
import { gateway, gatewayClass, grpcRoute } from '../../support/gateway-objects.ts'
import { configMap, tlsSecret } from '../../support/objects.ts'
import { olderSnapshot, writeAfterUpgrade } from '../../support/older-layout.ts'

/** The layout before a GRPCRoute was refused on HTTPS listeners while use-http2 is false: it was served there, unreachable. */
const BEFORE_HTTP2_KINDS = 51

describe('a snapshot written before GRPCRoutes were refused on HTTPS without HTTP/2', () => {
  it('stops serving them there at its next write, byte-equal to a fresh snapshot', () => {
    const shop = fixtureCertificate('shop.example.com')
    const objects = [
      ...app(1),
      gatewayClass(),
      tlsSecret('shop-tls', shop.certPem, shop.keyPem),
      gateway('edge', [{ name: 'https', protocol: 'HTTPS', hostname: 'shop.example.com', certificate: 'shop-tls' }]),
      grpcRoute({ name: 'echo', rules: [{ backends: [{ service: 'app-1' }] }] }),
    ]
    const fresh = new LiveCluster()
    fresh.apply([...objects, configMap({ 'use-http2': 'false' })].map(added))
    // The older hapedge served the GRPCRoute there as this one does with HTTP/2 on.
    const older = new LiveCluster()
    older.apply(objects.map(added))
    expect(older.files().get(FILES.prefixMap)).toContain('shop.example.com/')
    writeAfterUpgrade(olderSnapshot(older, fresh, { layout: BEFORE_HTTP2_KINDS, objects: ['ConfigMap/hapedge/hapedge'] }), older, fresh)
    expect(fresh.files().get(FILES.prefixMap)).not.toContain('shop.example.com/')
  })
})
