import { describe, expect, it } from 'vitest'
import { LiveCluster } from '../../../core/incremental/live-cluster.ts'
import { portCrtList } from '../../../core/render/files.ts'
import { added, app } from '../../support/contracts/cluster-apps.ts'
import { fixtureCertificate } from '../../support/fixtures.ts'
import { gateway, gatewayClass, httpRoute } from '../../support/gateway-objects.ts'
import { tlsSecret } from '../../support/objects.ts'
import { olderSnapshot, writeAfterUpgrade } from '../../support/older-layout.ts'

/** The last layout whose HTTPS ports of their own shared the HTTPS bind's crt-list: none had a list of its own. */
const SHARED_CRT_LIST = 58

describe('a snapshot written while HTTPS ports of their own shared the HTTPS bind’s crt-list', () => {
  it('writes the port’s own list at its next write, byte-equal to a fresh snapshot', () => {
    const { certPem, keyPem } = fixtureCertificate('shop.example.com')
    const options = { gatewayPorts: [{ port: 8443, protocol: 'HTTPS' as const, bind: '0.0.0.0:8443' }] }
    const objects = [
      ...app(1),
      gatewayClass(),
      tlsSecret('shop-tls', certPem, keyPem),
      gateway('edge', [{ name: 'alt-tls', protocol: 'HTTPS', port: 8443, hostname: 'shop.example.com', certificate: 'shop-tls' }]),
      httpRoute({ name: 'shop', rules: [{ backends: [{ service: 'app-1' }] }] }),
    ].map(added)
    const fresh = new LiveCluster(options)
    fresh.apply(objects)
    expect(fresh.files().get(portCrtList(8443))).toBe('tls/default_shop-tls.pem shop.example.com\n')
    const older = new LiveCluster(options)
    older.apply(objects)
    const old = olderSnapshot(older, fresh, { layout: SHARED_CRT_LIST, objects: [], missingFiles: [portCrtList(8443)] })
    writeAfterUpgrade(old, older, fresh)
  })
})
