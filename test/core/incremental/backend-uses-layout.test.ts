import { describe, expect, it } from 'vitest'
import { LiveCluster } from '../../../core/incremental/live-cluster.ts'
import { FILES } from '../../../core/render/files.ts'
import { TABLE, treeKey } from '../../../core/snapshot/tables.ts'
import { added, app, modified } from '../../support/contracts/cluster-apps.ts'
import { ingress } from '../../support/objects.ts'
import { olderSnapshot, writeAfterUpgrade } from '../../support/older-layout.ts'

/** The layout before a backend's use counted hosts: it counted the routes that lead to it. */
const ROUTES_COUNTED = 69
const APP_1 = 'default_app-1_80'
const useOf = (cluster: LiveCluster, backend: string) => JSON.parse(cluster.current.snapshot.get(treeKey(TABLE.backendUse, backend)) ?? 'null')

const shop = (service: string, paths = ['/', '/a', '/b']) =>
  ingress({ name: 'shop', rules: [{ host: 'shop.example.com', paths: paths.map((path) => ({ path, service })) }] })

describe('backend uses, counted by host', () => {
  it('count each host once, however many of its paths lead to the backend: a path added beside them writes no use', () => {
    const cluster = new LiveCluster()
    cluster.apply([...app(1), shop('app-1')].map(added))
    // app-1's own host and the shop's: two hosts, four routes.
    expect(useOf(cluster, APP_1).count).toBe(2)
    const before = cluster.current.snapshot
    const { snapshot } = cluster.apply([modified(shop('app-1', ['/', '/a', '/b', '/c']))])
    expect(snapshot.get(treeKey(TABLE.backendUse, APP_1))).toBe(before.get(treeKey(TABLE.backendUse, APP_1)))
    expect(cluster.files().get(FILES.backends)).toContain(`backend ${APP_1}\n`)
    // The last host to route to it goes: so does the backend.
    cluster.apply([modified(shop('app-2')), ...app(2).map(added), modified(app(1, [])[0])])
    expect(useOf(cluster, APP_1)).toBeNull()
    expect(cluster.files().get(FILES.backends)).not.toContain(`backend ${APP_1}\n`)
  })

  it('are counted again from the hosts at the first write onto a snapshot that counted routes, byte-equal to a fresh one', () => {
    const base = [...app(1), ...app(2)]
    const older = new LiveCluster()
    older.apply([...base, shop('app-1')].map(added))
    // What the older hapedge stored: app-1's backend used by four routes (its own host's one, the shop's three).
    const old = olderSnapshot(older, older, { layout: ROUTES_COUNTED, objects: [] })
    const counted = old.snapshot.edit(new Map([[treeKey(TABLE.backendUse, APP_1), JSON.stringify({ ...useOf(older, APP_1), count: 4 })]])).tree
    // The shop's paths move to app-2: app-1's own host still routes to it, once.
    const fresh = new LiveCluster()
    fresh.apply([...base, shop('app-2')].map(added))
    writeAfterUpgrade({ ...old, snapshot: counted }, older, fresh, [modified(shop('app-2'))])
    expect(useOf(fresh, APP_1).count).toBe(1)
  })
})
