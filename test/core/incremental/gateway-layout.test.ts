import { describe, expect, it } from 'vitest'
import { LiveCluster } from '../../../core/incremental/live-cluster.ts'
import { FILES } from '../../../core/render/files.ts'
import { MIRROR_LUA_FILE } from '../../../core/render/render-mirror.ts'
import { SEPARATOR } from '../../../core/snapshot/separator.ts'
import { CLUSTER_WIDE, SNAPSHOT_LAYOUT, TABLE, treeKey } from '../../../core/snapshot/tables.ts'
import { added, app } from '../../support/contracts/cluster-apps.ts'
import { gateway, gatewayClass, grpcRoute, httpRoute, namespace, type BackendSpec } from '../../support/gateway-objects.ts'
import { endpointSlice, ingress, service } from '../../support/objects.ts'
import { olderSnapshot, writeAfterUpgrade } from '../../support/older-layout.ts'

/** A backendRef filter hapedge does not honour: the route is refused, as an older hapedge refused what this one serves. */
const EXTENSION_REF = { type: 'ExtensionRef', extensionRef: { group: 'example.com', kind: 'Filter', name: 'x' } }

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

  it('serves the RequestMirror it refused before from maps and a script it did not have, and indexes the route under its mirror Service, byte-equal to a fresh snapshot', () => {
    const routeWith = (filters: unknown[]) => httpRoute({ name: 'r', hostnames: ['api.example.com'], rules: [{ filters, backends: [{ service: 'app-2' }] }] })
    const gatewayObjects = [gatewayClass(), gateway('edge', [{ name: 'web' }])]
    const fresh = new LiveCluster()
    fresh.apply([...app(2), ...gatewayObjects, routeWith([{ type: 'RequestMirror', requestMirror: { backendRef: { name: 'mirror', port: 80 } } }])].map(added))
    // The older hapedge reported a RequestMirror and did not serve the route, nor index it under the Service it mirrors to.
    const older = new LiveCluster()
    older.apply(
      [...app(2), ...gatewayObjects, routeWith([{ type: 'ExtensionRef', extensionRef: { group: 'example.com', kind: 'Filter', name: 'x' } }])].map(added),
    )
    const missingFiles = [FILES.mirrorExactMap, FILES.mirrorPrefixMap, MIRROR_LUA_FILE]
    const old = olderSnapshot(older, fresh, { layout: SNAPSHOT_LAYOUT - 1, objects: ['HTTPRoute/default/r'], missingFiles })
    // The same snapshot, indexes included: a mirror Service that comes derives the route again, which then mirrors to it.
    writeAfterUpgrade(old, older, fresh)
    const mirror = [service('mirror', [{ port: 80 }]), endpointSlice('mirror', ['10.9.0.1'])]
    fresh.apply(mirror.map(added))
    expect(fresh.files().get(FILES.mirrorPrefixMap)).toBe('api.example.com/ default_mirror_80|1|1\n')
  })

  it('serves the HTTPRoutes whose filters it did not honour before, byte-equal to a fresh snapshot', () => {
    const routeWith = (filters: unknown[]) => httpRoute({ name: 'r', hostnames: ['api.example.com'], rules: [{ filters, backends: [{ service: 'app-2' }] }] })
    const headers = [{ type: 'RequestHeaderModifier', requestHeaderModifier: { set: [{ name: 'X-Team', value: 'blue' }] } }]
    const gatewayObjects = [gatewayClass(), gateway('edge', [{ name: 'web' }])]
    const fresh = new LiveCluster()
    fresh.apply([...app(2), ...gatewayObjects, routeWith(headers)].map(added))
    // The older hapedge reported every filter and did not serve the route: as this one does an ExtensionRef.
    const older = new LiveCluster()
    older.apply(
      [...app(2), ...gatewayObjects, routeWith([{ type: 'ExtensionRef', extensionRef: { group: 'example.com', kind: 'Filter', name: 'x' } }])].map(added),
    )
    expect(older.files().get(FILES.hostsMap)).not.toContain('api.example.com')
    const old = olderSnapshot(older, fresh, { layout: SNAPSHOT_LAYOUT - 1, objects: ['HTTPRoute/default/r'] })
    writeAfterUpgrade(old, older, fresh)
    expect(fresh.files().get(FILES.headerValuesMap)).toContain('api.example.com/|P|req-set|x-team blue')
  })

  it('serves a route whose rule names only a Service it may not send to, answering 500 there, byte-equal to a fresh snapshot', () => {
    const gatewayObjects = [gatewayClass(), gateway('edge', [{ name: 'web' }])]
    const route = (backends: BackendSpec[]) =>
      httpRoute({ name: 'r', hostnames: ['api.example.com'], rules: [{ matches: [{ value: '/ok' }], backends: [{ service: 'app-2' }] }, { backends }] })
    const fresh = new LiveCluster()
    fresh.apply([...app(2), ...gatewayObjects, route([{ service: 'app-2', namespace: 'team' }])].map(added))
    expect(fresh.files().get(FILES.prefixMap)).toContain('hapedge-unresolved')
    // The older hapedge refused the whole route, as this one refuses an ExtensionRef on a backendRef.
    const older = new LiveCluster()
    older.apply([...app(2), ...gatewayObjects, route([{ service: 'app-2', filters: [EXTENSION_REF] }])].map(added))
    expect(older.files().get(FILES.hostsMap)).not.toContain('api.example.com')
    const old = olderSnapshot(older, fresh, { layout: 37, objects: ['HTTPRoute/default/r'] })
    writeAfterUpgrade(old, older, fresh)
  })

  it('serves a rule whose backendRefs all have weight 0, which it refused before, answering 500, byte-equal to a fresh snapshot', () => {
    const gatewayObjects = [gatewayClass(), gateway('edge', [{ name: 'web' }])]
    const route = (backends: BackendSpec[]) => httpRoute({ name: 'r', hostnames: ['api.example.com'], rules: [{ backends }] })
    const fresh = new LiveCluster()
    fresh.apply([...app(2), ...gatewayObjects, route([{ service: 'app-2', weight: 0 }])].map(added))
    expect(fresh.files().get(FILES.prefixMap)).toContain('api.example.com/ hapedge-weightless')
    // The older hapedge refused the whole route, as this one refuses an ExtensionRef on a backendRef.
    const older = new LiveCluster()
    older.apply([...app(2), ...gatewayObjects, route([{ service: 'app-2', filters: [EXTENSION_REF] }])].map(added))
    expect(older.files().get(FILES.hostsMap)).not.toContain('api.example.com')
    const old = olderSnapshot(older, fresh, { layout: SNAPSHOT_LAYOUT - 1, objects: ['HTTPRoute/default/r'] })
    writeAfterUpgrade(old, older, fresh)
  })

  it('serves an HTTPRoute wildcard host on names of more than one label, which it refused before, byte-equal to a fresh snapshot', () => {
    const gatewayObjects = [gatewayClass(), gateway('edge', [{ name: 'web' }])]
    const route = (filters: unknown[]) => httpRoute({ name: 'r', hostnames: ['*.example.com'], rules: [{ filters, backends: [{ service: 'app-2' }] }] })
    const fresh = new LiveCluster()
    fresh.apply([...app(2), ...gatewayObjects, route([])].map(added))
    expect(fresh.files().get(FILES.wildcardHostsMap)).toContain('*.example.com')
    // The older hapedge refused the route for its wildcard, as this one does an ExtensionRef, and had no wildcard-hosts map.
    const older = new LiveCluster()
    older.apply([...app(2), ...gatewayObjects, route([{ type: 'ExtensionRef', extensionRef: { group: 'example.com', kind: 'Filter', name: 'x' } }])].map(added))
    expect(older.files().get(FILES.hostsMap)).not.toContain('*.example.com')
    const old = olderSnapshot(older, fresh, { layout: 38, objects: ['HTTPRoute/default/r'], missingFiles: [FILES.wildcardHostsMap] })
    writeAfterUpgrade(old, older, fresh)
  })

  it('answers 500 for a Service that does not exist, alone or as a share of a split, as a fresh snapshot does, and indexes its routes by the Services they name', () => {
    const gatewayObjects = [gatewayClass(), gateway('edge', [{ name: 'web' }])]
    const routes = [
      httpRoute({ name: 'alone', hostnames: ['alone.example.com'], rules: [{ backends: [{ service: 'ghost' }] }] }),
      httpRoute({ name: 'half', hostnames: ['half.example.com'], rules: [{ backends: [{ service: 'app-2' }, { service: 'ghost' }] }] }),
    ]
    const fresh = new LiveCluster()
    fresh.apply([...app(2), ...gatewayObjects, ...routes].map(added))
    expect(fresh.files().get(FILES.prefixMap)).toContain('alone.example.com/ hapedge-unresolved')
    expect(fresh.files().get(FILES.splitPrefixMap)).toBe('half.example.com/ 2|default_app-2_80|1|hapedge-unresolved|2\n')
    // The older hapedge sent them to the Service's backend, without servers (503), as this one does for a Service without endpoints.
    const older = new LiveCluster()
    older.apply([...app(2), service('ghost', [{ port: 80 }]), ...gatewayObjects, ...routes].map(added))
    expect(older.files().get(FILES.backends)).toContain('backend default_ghost_80')
    const old = olderSnapshot(older, fresh, { layout: SNAPSHOT_LAYOUT - 1, objects: ['Service/default/ghost'] })
    // Nor did it index HTTPRoutes by Service.
    const index = [...old.snapshot.prefix(treeKey(TABLE.serviceHttpRoutes, ''))].map(({ key }) => [key, undefined] as const)
    expect(index.length).toBeGreaterThan(0)
    const next = writeAfterUpgrade({ ...old, snapshot: old.snapshot.edit(new Map(index)).tree }, older, fresh)
    expect([...next.snapshot.prefix(treeKey(TABLE.serviceHttpRoutes, 'default/ghost', ''))].map(({ key }) => key.split(SEPARATOR).at(-1))).toEqual([
      'HTTPRoute/default/alone',
      'HTTPRoute/default/half',
    ])
  })

  it('serves the GRPCRoutes it only reported before (layout 42), indexed under their hosts, byte-equal to a fresh snapshot', () => {
    const gatewayObjects = [gatewayClass(), gateway('edge', [{ name: 'web' }])]
    const route = grpcRoute({
      name: 'g',
      hostnames: ['grpc.example.com'],
      rules: [{ matches: [{ method: { service: 'hapedge.Echo' } }], backends: [{ service: 'app-2' }] }],
    })
    const fresh = new LiveCluster()
    fresh.apply([...app(2), ...gatewayObjects, route].map(added))
    expect(fresh.files().get(FILES.prefixMap)).toContain('grpc.example.com/hapedge.Echo')
    // The older hapedge stored the GRPCRoute, indexed nothing for it and served nothing.
    const older = new LiveCluster()
    older.apply([...app(2), ...gatewayObjects].map(added))
    writeAfterUpgrade(olderSnapshot(older, fresh, { layout: 42, objects: ['GRPCRoute/default/g'] }), older, fresh)
  })

  it('serves the routes a Selector listener admits, which it refused and did not index before, once the Namespaces come, byte-equal to a fresh snapshot', () => {
    const route = httpRoute({
      name: 'r',
      namespace: 'shop',
      hostnames: ['api.example.com'],
      parents: [{ name: 'edge', namespace: 'default' }],
      rules: [{ backends: [{ service: 'app-2' }] }],
    })
    const selecting = gateway('edge', [{ name: 'web', from: 'Selector', selector: { matchLabels: { team: 'web' } } }])
    const shop = namespace('shop', { team: 'web' })
    const fresh = new LiveCluster()
    fresh.apply([...app(2), gatewayClass(), selecting, route, shop].map(added))
    expect(fresh.files().get(FILES.hostsMap)).toContain('api.example.com')
    // The older hapedge admitted no route through a Selector, so it indexed none under the listener's hosts (as Same does another namespace's), and read no Namespace.
    const older = new LiveCluster()
    older.apply([...app(2), gatewayClass(), gateway('edge', [{ name: 'web' }]), route].map(added))
    const old = olderSnapshot(older, fresh, { layout: SNAPSHOT_LAYOUT - 1, objects: ['Gateway/default/edge'] })
    writeAfterUpgrade(old, older, fresh, [added(shop)])
  })
})
