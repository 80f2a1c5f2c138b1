import { describe, expect, it } from 'vitest'
import { LiveCluster } from '../../../core/incremental/live-cluster.ts'
import { FILES } from '../../../core/render/files.ts'
import { defaultCertificateFile } from '../../../core/render/render-tls.ts'
import { added, app } from '../../support/contracts/cluster-apps.ts'
import { fixtureCertificate } from '../../support/fixtures.ts'
import { gateway, gatewayClass, httpRoute } from '../../support/gateway-objects.ts'
import { tlsSecret } from '../../support/objects.ts'
import { olderSnapshot, writeAfterUpgrade } from '../../support/older-layout.ts'

/** The layout before a Gateway's HTTPS listener without hostname gave the default certificate, and before `maps/tls-listeners.map`. */
const BEFORE_GATEWAY_TLS = 39

describe('a snapshot written before HTTPS listeners gave the default certificate and the misdirected-request map', () => {
  it('serves the listener without hostname to every name at its next write, byte-equal to a fresh snapshot', () => {
    const { certPem, keyPem } = fixtureCertificate('shop.example.com')
    const edge = (protocol: string) => gateway('edge', [{ name: 'tls', protocol, ...(protocol === 'HTTPS' ? { certificate: 'tls' } : {}) }])
    const base = [
      ...app(1),
      tlsSecret('tls', certPem, keyPem),
      gatewayClass(),
      httpRoute({ name: 'shop', hostnames: ['shop.example.com'], rules: [{ backends: [{ service: 'app-1' }] }] }),
    ]
    const fresh = new LiveCluster()
    fresh.apply([...base, edge('HTTPS')].map(added))
    // The older hapedge rendered no line for the listener's certificate but the route's host: here, a Gateway whose listener it served without one.
    const older = new LiveCluster()
    older.apply([...base, edge('HTTP')].map(added))
    const old = olderSnapshot(older, fresh, { layout: BEFORE_GATEWAY_TLS, objects: ['Gateway/default/edge'], missingFiles: [FILES.tlsListenersMap] })
    writeAfterUpgrade(old, older, fresh)
    expect(fresh.files().get(FILES.tlsListenersMap)).toBe('* *\n')
    expect(fresh.files().get(defaultCertificateFile('default/tls'))).toBe(certPem + keyPem)
  })
})
