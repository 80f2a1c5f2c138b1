import { describe, expect, it } from 'vitest'
import { LiveCluster } from '../../../core/incremental/live-cluster.ts'
import { FILES } from '../../../core/render/files.ts'
import { added, app } from '../../support/contracts/cluster-apps.ts'
import { gateway, gatewayClass, httpRoute } from '../../support/gateway-objects.ts'
import { olderSnapshot, writeAfterUpgrade } from '../../support/older-layout.ts'

/** The layout before a listener's port was checked: every HTTP listener was served on the HTTP bind, whatever its port. */
const BEFORE_LISTENER_PORTS = 40

describe('a snapshot written before listener ports were checked', () => {
  it('stops serving the routes of a listener on another port at its next write, byte-equal to a fresh snapshot', () => {
    const edge = (port: number) => gateway('edge', [{ name: 'web', port }])
    const base = [...app(1), gatewayClass(), httpRoute({ name: 'shop', hostnames: ['shop.example.com'], rules: [{ backends: [{ service: 'app-1' }] }] })]
    const fresh = new LiveCluster()
    fresh.apply([...base, edge(8080)].map(added))
    // The older hapedge served the listener on port 8080 as this one serves a listener on port 80.
    const older = new LiveCluster()
    older.apply([...base, edge(80)].map(added))
    expect(older.files().get(FILES.hostsMap)).toContain('shop.example.com')
    const old = olderSnapshot(older, fresh, { layout: BEFORE_LISTENER_PORTS, objects: ['Gateway/default/edge'] })
    writeAfterUpgrade(old, older, fresh)
    expect(fresh.files().get(FILES.hostsMap)).not.toContain('shop.example.com')
  })
})
