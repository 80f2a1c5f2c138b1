import { describe, expect, it } from 'vitest'
import { LiveCluster } from '../../../core/incremental/live-cluster.ts'
import { ClusterState } from '../../../core/model/cluster-state.ts'
import { Keyspace } from '../../../core/snapshot/keyspace.ts'
import { TABLE, treeKey } from '../../../core/snapshot/tables.ts'
import { gatewayApiStatus } from '../../../core/gateway-status/gateway-api-status.ts'
import { storedGatewayStatus } from '../../../core/gateway-status/stored-gateway-status.ts'
import { added, app } from '../../support/contracts/cluster-apps.ts'
import { gateway, gatewayClass, httpRoute } from '../../support/gateway-objects.ts'
import { olderSnapshot, writeAfterUpgrade } from '../../support/older-layout.ts'

/** The layout before the Gateway API status was kept in the snapshot: it was computed over every object at each read. */
const BEFORE_KEPT_STATUS = 44
const KEPT = [TABLE.gatewayStatus, TABLE.routeStatusReads, TABLE.listenerRoutes]

describe('a snapshot written before the Gateway API status was kept', () => {
  it('keeps every object’s status at its next write, byte-equal to a fresh snapshot and to the status computed over every object', () => {
    const objects = [
      ...app(1),
      ...app(2),
      gatewayClass(),
      gateway('edge', [{ name: 'web', from: 'All' }]),
      httpRoute({ name: 'shop', hostnames: ['shop.example.com'], rules: [{ backends: [{ service: 'app-1' }] }] }),
      httpRoute({ name: 'gone', hostnames: ['gone.example.com'], rules: [{ backends: [{ service: 'missing' }] }] }),
    ]
    const fresh = new LiveCluster()
    fresh.apply(objects.map(added))
    const older = new LiveCluster()
    older.apply(objects.map(added))
    const old = olderSnapshot(older, fresh, { layout: BEFORE_KEPT_STATUS, objects: [] })
    const stripped = [...KEPT].flatMap((table) => [...old.snapshot.prefix(treeKey(table, ''))].map((entry) => [entry.key, undefined] as const))
    expect(stripped.length).toBeGreaterThan(0)
    const next = writeAfterUpgrade({ snapshot: old.snapshot.edit(new Map(stripped)).tree, manifest: old.manifest }, older, fresh)
    const at = '2026-12-05T00:00:00.000Z'
    const stored = storedGatewayStatus(next.snapshot, new ClusterState({}, new Keyspace(next.snapshot)), at)
    expect(stored.objects.map((object) => `${object.kind}/${object.name}`)).toEqual([
      'GatewayClass/hapedge',
      'HTTPRoute/gone',
      'HTTPRoute/shop',
      'Gateway/edge',
    ])
    expect(JSON.stringify(stored)).toBe(JSON.stringify(gatewayApiStatus(new ClusterState({}, new Keyspace(next.snapshot)), at)))
  })
})
