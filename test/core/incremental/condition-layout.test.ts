import { describe, expect, it } from 'vitest'
import { LiveCluster } from '../../../core/incremental/live-cluster.ts'
import { FILES } from '../../../core/render/files.ts'
import { added, app } from '../../support/contracts/cluster-apps.ts'
import { gateway, gatewayClass, httpRoute } from '../../support/gateway-objects.ts'
import { olderSnapshot, writeAfterUpgrade } from '../../support/older-layout.ts'

/** The layout before HTTPRoute conditions: a header match was refused, and the condition maps did not exist. */
const BEFORE_CONDITIONS = 36
const NEW_MAPS = [FILES.conditionMap, FILES.conditionKeysMap, FILES.conditionRegexMap]

describe('a snapshot written before HTTPRoute method, header and query parameter matches', () => {
  it('serves the route it refused at its next write, in maps it did not have, byte-equal to a fresh snapshot', () => {
    const route = (name: string) =>
      httpRoute({
        name: 'shop',
        hostnames: ['shop.example.com'],
        rules: [{ matches: [{ value: '/api', headers: [{ name, value: 'canary' }] }], backends: [{ service: 'app-2' }] }, { backends: [{ service: 'app-1' }] }],
      })
    const base = [...app(1), ...app(2), gatewayClass(), gateway('edge', [{ name: 'web' }])]
    const fresh = new LiveCluster()
    fresh.apply([...base, route('x-env')].map(added))
    // The older hapedge refused the route, as this one refuses a header name it cannot write.
    const older = new LiveCluster()
    older.apply([...base, route('x env')].map(added))
    const old = olderSnapshot(older, fresh, { layout: BEFORE_CONDITIONS, objects: ['HTTPRoute/default/shop'], missingFiles: NEW_MAPS })
    writeAfterUpgrade(old, older, fresh)
    expect(fresh.files().get(FILES.conditionKeysMap)).toBe(
      'shop.example.com?0P/api|1 shop.example.com?1P/api\nshop.example.com?0P/api|2 shop.example.com?0P/\n',
    )
  })
})
