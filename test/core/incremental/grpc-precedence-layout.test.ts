import { describe, expect, it } from 'vitest'
import { LiveCluster } from '../../../core/incremental/live-cluster.ts'
import { FILES } from '../../../core/render/files.ts'
import { added, app } from '../../support/contracts/cluster-apps.ts'
import { gateway, gatewayClass, grpcRoute } from '../../support/gateway-objects.ts'
import { olderSnapshot, writeAfterUpgrade } from '../../support/older-layout.ts'

/** The layout before a GRPCRoute match of no service left a service matched alone on its host to that match. */
const BEFORE_SERVICES_FIRST = 48

describe('a snapshot written before a GRPCRoute service matched alone came before a method alone', () => {
  it('leaves the service to it at its next write, byte-equal to a fresh snapshot', () => {
    const method = grpcRoute({ name: 'method', rules: [{ matches: [{ method: { method: 'Ping' } }], backends: [{ service: 'app-1' }] }] })
    // With a header match the service alone is a chain's, which this version leaves out of the method's line too: the older line.
    const service = (headers?: object[]) =>
      grpcRoute({ name: 'service', rules: [{ matches: [{ method: { service: 'hapedge.Echo' }, headers }], backends: [{ service: 'app-1' }] }] })
    const base = [...app(1), gatewayClass(), gateway('edge', [{ name: 'grpc', hostname: 'grpc.example.com' }]), method]
    const fresh = new LiveCluster()
    fresh.apply([...base, service()].map(added))
    const older = new LiveCluster()
    older.apply([...base, service([{ name: 'x-env', value: 'canary' }])].map(added))
    expect(older.files().get(FILES.pathRegexMap)).not.toContain('(?!')
    const old = olderSnapshot(older, fresh, { layout: BEFORE_SERVICES_FIRST, objects: ['GRPCRoute/default/service'] })
    writeAfterUpgrade(old, older, fresh)
    expect(fresh.files().get(FILES.pathRegexMap)).toContain('(?!/(?:hapedge\\.Echo)/)')
  })
})
