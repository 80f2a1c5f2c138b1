import { describe, expect, it } from 'vitest'
import { LiveCluster } from '../../../core/incremental/live-cluster.ts'
import { FILES } from '../../../core/render/files.ts'
import { CLUSTER_WIDE, SNAPSHOT_LAYOUT, TABLE, treeKey } from '../../../core/snapshot/tables.ts'
import { added, app } from '../../support/contracts/cluster-apps.ts'
import { gateway, gatewayClass, httpRoute } from '../../support/gateway-objects.ts'
import { ingress } from '../../support/objects.ts'
import { olderSnapshot, writeAfterUpgrade } from '../../support/older-layout.ts'

/** The layout before the Gateway API was read: no HTTPRoute indexes, and settings without `gateway-controller`. */
const BEFORE_GATEWAY_API = 27

describe('a snapshot written before the Gateway API was read', () => {
  it('records the gateway-controller setting at its next write and serves the HTTPRoutes that come, byte-equal to a fresh snapshot', () => {
    const web = ingress({ name: 'web', createdAt: '2024-01-01T00:00:00Z', rules: [{ host: 'shop.example.com', paths: [{ service: 'app-1' }] }] })
    const gatewayObjects = [
      gatewayClass(),
      gateway('edge', [{ name: 'web' }]),
      httpRoute({ name: 'r', hostnames: ['api.example.com'], rules: [{ backends: [{ service: 'app-2' }] }] }),
    ]
    const fresh = new LiveCluster()
    fresh.apply([...app(1), ...app(2), web, ...gatewayObjects].map(added))
    const older = new LiveCluster()
    older.apply([...app(1), ...app(2), web].map(added))
    const old = olderSnapshot(older, fresh, { layout: BEFORE_GATEWAY_API, objects: [] })
    // The older hapedge's settings had no gateway-controller.
    const settingsKey = treeKey(TABLE.settings, CLUSTER_WIDE)
    const record = JSON.parse(old.snapshot.get(settingsKey)!)
    delete record.settings['gateway-controller']
    const withoutSetting = { ...old, snapshot: old.snapshot.edit(new Map([[settingsKey, JSON.stringify(record)]])).tree }
    const next = writeAfterUpgrade(withoutSetting, older, fresh, gatewayObjects.map(added))
    expect(next.snapshot.get(settingsKey)).toContain('"gateway-controller":"hapedge.io/gateway-controller"')
  })

  it('serves the HTTPRoutes whose filters it did not honour before, byte-equal to a fresh snapshot', () => {
    const routeWith = (filters: unknown[]) => httpRoute({ name: 'r', hostnames: ['api.example.com'], rules: [{ filters, backends: [{ service: 'app-2' }] }] })
    const headers = [{ type: 'RequestHeaderModifier', requestHeaderModifier: { set: [{ name: 'X-Team', value: 'blue' }] } }]
    const gatewayObjects = [gatewayClass(), gateway('edge', [{ name: 'web' }])]
    const fresh = new LiveCluster()
    fresh.apply([...app(2), ...gatewayObjects, routeWith(headers)].map(added))
    // The older hapedge reported every filter and did not serve the route: as this one does a RequestMirror.
    const older = new LiveCluster()
    older.apply([...app(2), ...gatewayObjects, routeWith([{ type: 'RequestMirror', requestMirror: {} }])].map(added))
    expect(older.files().get(FILES.hostsMap)).not.toContain('api.example.com')
    const old = olderSnapshot(older, fresh, { layout: SNAPSHOT_LAYOUT - 1, objects: ['HTTPRoute/default/r'] })
    writeAfterUpgrade(old, older, fresh)
    expect(fresh.files().get(FILES.headerValuesMap)).toContain('api.example.com/|P|req-set|x-team blue')
  })

  it('serves a route whose rule names only a Service it may not send to, answering 500 there, byte-equal to a fresh snapshot', () => {
    const gatewayObjects = [gatewayClass(), gateway('edge', [{ name: 'web' }])]
    const route = (backends: { service: string; namespace?: string }[]) =>
      httpRoute({ name: 'r', hostnames: ['api.example.com'], rules: [{ matches: [{ value: '/ok' }], backends: [{ service: 'app-2' }] }, { backends }] })
    const fresh = new LiveCluster()
    fresh.apply([...app(2), ...gatewayObjects, route([{ service: 'app-2', namespace: 'team' }])].map(added))
    expect(fresh.files().get(FILES.prefixMap)).toContain('hapedge-unresolved')
    // The older hapedge refused the whole route, as this one still refuses a rule whose Services are partly out of reach.
    const older = new LiveCluster()
    older.apply([...app(2), ...gatewayObjects, route([{ service: 'app-2' }, { service: 'app-2', namespace: 'team' }])].map(added))
    expect(older.files().get(FILES.hostsMap)).not.toContain('api.example.com')
    const old = olderSnapshot(older, fresh, { layout: 37, objects: ['HTTPRoute/default/r'] })
    writeAfterUpgrade(old, older, fresh)
  })

  it('serves an HTTPRoute wildcard host on names of more than one label, which it refused before, byte-equal to a fresh snapshot', () => {
    const gatewayObjects = [gatewayClass(), gateway('edge', [{ name: 'web' }])]
    const route = (filters: unknown[]) => httpRoute({ name: 'r', hostnames: ['*.example.com'], rules: [{ filters, backends: [{ service: 'app-2' }] }] })
    const fresh = new LiveCluster()
    fresh.apply([...app(2), ...gatewayObjects, route([])].map(added))
    expect(fresh.files().get(FILES.wildcardHostsMap)).toContain('*.example.com')
    // The older hapedge refused the route for its wildcard, as this one does a RequestMirror, and had no wildcard-hosts map.
    const older = new LiveCluster()
    older.apply([...app(2), ...gatewayObjects, route([{ type: 'RequestMirror', requestMirror: {} }])].map(added))
    expect(older.files().get(FILES.hostsMap)).not.toContain('*.example.com')
    const old = olderSnapshot(older, fresh, { layout: 38, objects: ['HTTPRoute/default/r'], missingFiles: [FILES.wildcardHostsMap] })
    writeAfterUpgrade(old, older, fresh)
  })
})
