import { describe, expect, it } from 'vitest'
import { LiveCluster } from '../../../core/incremental/live-cluster.ts'
import { FILES } from '../../../core/render/files.ts'
import { added, app } from '../../support/contracts/cluster-apps.ts'
import { gateway, gatewayClass, httpRoute } from '../../support/gateway-objects.ts'
import { olderSnapshot, writeAfterUpgrade } from '../../support/older-layout.ts'

/** The layout before a backendRef's header filters were served: the route was refused. */
const BEFORE_BACKEND_FILTERS = 43
/** The layout before the header filters of a backendRef among several weighted ones were served. */
const BEFORE_SPLIT_FILTERS = 52
/** The layout before a backendRef's URLRewrite was served. */
const BEFORE_BACKEND_REWRITES = 59

const SET_TEAM = [{ type: 'RequestHeaderModifier', requestHeaderModifier: { set: [{ name: 'X-Team', value: 'blue' }] } }]

/**
 * The cluster at its first write after an upgrade from `layout`, which refused the route `route`
 * gives with `filters` (SET_TEAM) on its first backendRef, as this one refuses a filter it does not serve on a
 * backendRef; its files are those of a cluster always run by this version.
 */
function upgraded(layout: number, route: (filters: unknown[]) => unknown, filters: unknown[] = SET_TEAM): LiveCluster {
  const base = [...app(1), ...app(2), gatewayClass(), gateway('edge', [{ name: 'web' }])]
  const fresh = new LiveCluster()
  fresh.apply([...base, route(filters)].map(added))
  const older = new LiveCluster()
  older.apply([...base, route([{ type: 'ExtensionRef', extensionRef: { group: 'example.com', kind: 'Filter', name: 'x' } }])].map(added))
  expect(older.files().get(FILES.hostsMap)).not.toContain('shop.example.com')
  writeAfterUpgrade(olderSnapshot(older, fresh, { layout, objects: ['HTTPRoute/default/shop'] }), older, fresh)
  return fresh
}

describe('a snapshot written before the header filters of a backendRef were served', () => {
  it('serves the route it refused at its next write, byte-equal to a fresh snapshot', () => {
    const fresh = upgraded(BEFORE_BACKEND_FILTERS, (filters) =>
      httpRoute({ name: 'shop', hostnames: ['shop.example.com'], rules: [{ backends: [{ service: 'app-1', filters }] }] }),
    )
    expect(fresh.files().get(FILES.headerValuesMap)).toContain('req-set|x-team blue')
  })

  it('serves a split whose backendRefs have header filters of their own, refused before, at its next write', () => {
    const fresh = upgraded(BEFORE_SPLIT_FILTERS, (filters) =>
      httpRoute({ name: 'shop', hostnames: ['shop.example.com'], rules: [{ backends: [{ service: 'app-1', filters }, { service: 'app-2' }] }] }),
    )
    expect(fresh.files().get(FILES.headerValuesMap)).toContain('shop.example.com/|P|S|default_app-1_80|req-set|x-team blue')
  })

  it("serves a split whose backendRef rewrites its requests' path and Host, refused before, at its next write", () => {
    const rewrite = [{ type: 'URLRewrite', urlRewrite: { hostname: 'app.internal', path: { type: 'ReplaceFullPath', replaceFullPath: '/one' } } }]
    const fresh = upgraded(
      BEFORE_BACKEND_REWRITES,
      (filters) => httpRoute({ name: 'shop', hostnames: ['shop.example.com'], rules: [{ backends: [{ service: 'app-1', filters }, { service: 'app-2' }] }] }),
      rewrite,
    )
    expect(fresh.files().get(FILES.upstreamHostExactMap)).toContain('shop.example.com/|P|S|default_app-1_80 app.internal')
  })
})
