import { describe, expect, it } from 'vitest'
import { LiveCluster } from '../../../core/incremental/live-cluster.ts'
import { FILES } from '../../../core/render/files.ts'
import { added, app } from '../../support/contracts/cluster-apps.ts'
import { fixtureCertificate } from '../../support/fixtures.ts'
import { gateway, gatewayClass, httpRoute } from '../../support/gateway-objects.ts'
import { tlsSecret } from '../../support/objects.ts'
import { olderSnapshot, writeAfterUpgrade } from '../../support/older-layout.ts'

/** The layout before `maps/tls-wildcard-listeners.map`: a wildcard HTTPS listener's names were one label deep for the 421 check. */
const BEFORE_DEEP_LISTENERS = 53

describe('a snapshot written before wildcard HTTPS listeners took names of any depth for the misdirected-request check', () => {
  it('writes their map at its next write, byte-equal to a fresh snapshot', () => {
    const { certPem, keyPem } = fixtureCertificate('shop.example.com')
    const objects = [
      ...app(1),
      tlsSecret('tls', certPem, keyPem),
      gatewayClass(),
      gateway('edge', [{ name: 'wild', protocol: 'HTTPS', hostname: '*.example.com', certificate: 'tls' }]),
      httpRoute({ name: 'shop', hostnames: ['shop.example.com'], rules: [{ backends: [{ service: 'app-1' }] }] }),
    ]
    const fresh = new LiveCluster()
    fresh.apply(objects.map(added))
    const older = new LiveCluster()
    older.apply(objects.map(added))
    const old = olderSnapshot(older, fresh, { layout: BEFORE_DEEP_LISTENERS, objects: [], missingFiles: [FILES.tlsWildcardListenersMap] })
    writeAfterUpgrade(old, older, fresh)
    expect(fresh.files().get(FILES.tlsWildcardListenersMap)).toBe('(?#9987)\\.example\\.com$ *.example.com\n')
  })
})
