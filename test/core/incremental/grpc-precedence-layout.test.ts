import { describe, expect, it } from 'vitest'
import { LiveCluster } from '../../../core/incremental/live-cluster.ts'
import { FILES } from '../../../core/render/files.ts'
import { added, app } from '../../support/contracts/cluster-apps.ts'
import { gateway, gatewayClass, grpcRoute } from '../../support/gateway-objects.ts'
import { olderSnapshot, writeAfterUpgrade } from '../../support/older-layout.ts'

/** The layout before a GRPCRoute match of no service left a service matched alone on its host to that match. */
const BEFORE_SERVICES_FIRST = 48
/** The layout before it left it a service matched alone with header matches too, and followed those matches in their chain. */
const BEFORE_HEADERS_FIRST = 55

const method = grpcRoute({ name: 'method', rules: [{ matches: [{ method: { method: 'Ping' } }], backends: [{ service: 'app-1' }] }] })
const service = (headers?: object[]) =>
  grpcRoute({ name: 'service', rules: [{ matches: [{ method: { service: 'hapedge.Echo' }, headers }], backends: [{ service: 'app-1' }] }] })
const base = [...app(1), gatewayClass(), gateway('edge', [{ name: 'grpc', hostname: 'grpc.example.com' }])]

/**
 * What each older layout wrote for the method alone: its line without the lookahead, as this
 * version writes it with no service matched alone on the host; the service's route kept as received.
 */
function upgraded(layout: number, serviceNow: object): LiveCluster {
  const fresh = new LiveCluster()
  fresh.apply([...base, method, serviceNow].map(added))
  const older = new LiveCluster()
  older.apply([...base, method].map(added))
  expect(older.files().get(FILES.pathRegexMap)).not.toContain('(?!')
  writeAfterUpgrade(olderSnapshot(older, fresh, { layout, objects: ['GRPCRoute/default/service'] }), older, fresh)
  return fresh
}

describe('a snapshot written before a GRPCRoute service matched alone came before a method alone', () => {
  it('leaves the service to it at its next write, byte-equal to a fresh snapshot', () => {
    expect(upgraded(BEFORE_SERVICES_FIRST, service()).files().get(FILES.pathRegexMap)).toContain('(?!/(?:hapedge\\.Echo)/)')
  })

  it('with header matches, leaves the service to them and puts the method alone after them in their chain at its next write', () => {
    const fresh = upgraded(BEFORE_HEADERS_FIRST, service([{ name: 'x-env', value: 'canary' }]))
    expect(fresh.files().get(FILES.pathRegexMap)).toContain('(?!/(?:hapedge\\.Echo)/)')
    expect(fresh.files().get(FILES.conditionRegexMap)).toContain('\\|p\\|1\\|(?:/[^\\/]+/Ping)$')
  })
})
