import { describe, expect, it } from 'vitest'
import { LiveCluster } from '../../../core/incremental/live-cluster.ts'
import { FILES } from '../../../core/render/files.ts'
import { added, app } from '../../support/contracts/cluster-apps.ts'
import { gateway, gatewayClass, httpRoute, type BackendSpec } from '../../support/gateway-objects.ts'
import { olderSnapshot, writeAfterUpgrade } from '../../support/older-layout.ts'

/** The layout before splits: an HTTPRoute rule with more than two weighted Services was refused, and the split maps did not exist. */
const BEFORE_SPLITS = 32
const NEW_MAPS = [FILES.splitExactMap, FILES.splitPrefixMap]

describe('a snapshot written before HTTPRoute splits of any size', () => {
  it('serves the route it refused at its next write, in maps it did not have, byte-equal to a fresh snapshot', () => {
    const route = (backends: BackendSpec[]) => httpRoute({ name: 'shop', hostnames: ['shop.example.com'], rules: [{ backends }] })
    const base = [...app(1), ...app(2), ...app(3), gatewayClass(), gateway('edge', [{ name: 'web' }])]
    const fresh = new LiveCluster()
    fresh.apply(
      [
        ...base,
        route([
          { service: 'app-1', weight: 1 },
          { service: 'app-2', weight: 2 },
          { service: 'app-3', weight: 1 },
        ]),
      ].map(added),
    )
    // The older hapedge refused the route, as this one refuses an ExtensionRef on a backendRef.
    const extensionRef = { type: 'ExtensionRef', extensionRef: { group: 'example.com', kind: 'Filter', name: 'x' } }
    const older = new LiveCluster()
    older.apply([...base, route([{ service: 'app-1', filters: [extensionRef] }])].map(added))
    const old = olderSnapshot(older, fresh, { layout: BEFORE_SPLITS, objects: ['HTTPRoute/default/shop'], missingFiles: NEW_MAPS })
    writeAfterUpgrade(old, older, fresh)
    expect(fresh.files().get(FILES.splitPrefixMap)).toBe('shop.example.com/ 4|default_app-1_80|1|default_app-2_80|3|default_app-3_80|4\n')
  })
})
