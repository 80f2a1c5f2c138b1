import { describe, expect, it } from 'vitest'
import { LiveCluster } from '../../../core/incremental/live-cluster.ts'
import { FILES } from '../../../core/render/files.ts'
import { added, app } from '../../support/contracts/cluster-apps.ts'
import { gateway, gatewayClass, httpRoute } from '../../support/gateway-objects.ts'
import { olderSnapshot, writeAfterUpgrade } from '../../support/older-layout.ts'

/** The layout before a backendRef's header filters were served: the route was refused. */
const BEFORE_BACKEND_FILTERS = 43

describe('a snapshot written before the header filters of a backendRef were served', () => {
  it('serves the route it refused at its next write, byte-equal to a fresh snapshot', () => {
    const route = (filters: unknown[]) => httpRoute({ name: 'shop', hostnames: ['shop.example.com'], rules: [{ backends: [{ service: 'app-1', filters }] }] })
    const base = [...app(1), gatewayClass(), gateway('edge', [{ name: 'web' }])]
    const fresh = new LiveCluster()
    fresh.apply([...base, route([{ type: 'RequestHeaderModifier', requestHeaderModifier: { set: [{ name: 'X-Team', value: 'blue' }] } }])].map(added))
    // The older hapedge refused the route, as this one refuses a filter it does not serve on a backendRef.
    const older = new LiveCluster()
    older.apply([...base, route([{ type: 'URLRewrite', urlRewrite: { hostname: 'app.internal' } }])].map(added))
    expect(older.files().get(FILES.hostsMap)).not.toContain('shop.example.com')
    const old = olderSnapshot(older, fresh, { layout: BEFORE_BACKEND_FILTERS, objects: ['HTTPRoute/default/shop'] })
    writeAfterUpgrade(old, older, fresh)
    expect(fresh.files().get(FILES.headerValuesMap)).toContain('req-set|x-team blue')
  })
})
