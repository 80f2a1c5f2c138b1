import { describe, expect, it } from 'vitest'
import { LiveCluster } from '../../../core/incremental/live-cluster.ts'
import { FILES } from '../../../core/render/files.ts'
import { added, app } from '../../support/contracts/cluster-apps.ts'
import { gateway, gatewayClass, grpcRoute, httpRoute } from '../../support/gateway-objects.ts'
import { olderSnapshot, writeAfterUpgrade } from '../../support/older-layout.ts'

/** The last layout that served only the older of an HTTPRoute and a GRPCRoute on one listener with a hostname in common. */
const WHILE_KINDS_CONFLICTED = 56

describe('a snapshot written while an HTTPRoute and a GRPCRoute on one listener and hostname conflicted', () => {
  it('serves the newer of the two too at its next write, byte-equal to a fresh snapshot', () => {
    const edge = gateway('edge', [
      { name: 'api', hostname: 'api.example.com' },
      { name: 'any', port: 80 },
    ])
    const web = httpRoute({
      name: 'web',
      createdAt: '2020-01-01T00:00:00Z',
      parents: [{ name: 'edge', sectionName: 'api' }],
      rules: [{ matches: [{ type: 'PathPrefix', value: '/web' }], backends: [{ service: 'app-1' }] }],
    })
    // On listener `sectionName`: `api` is the HTTPRoute's, where both are served; on `nope`, none, it is attached nowhere.
    const echo = (sectionName: string) =>
      grpcRoute({
        name: 'echo',
        createdAt: '2024-01-01T00:00:00Z',
        hostnames: ['api.example.com'],
        parents: [{ name: 'edge', sectionName }],
        rules: [{ matches: [{ method: { service: 'hapedge.Echo' } }], backends: [{ service: 'app-1' }] }],
      })
    const base = [...app(1), gatewayClass(), edge, web]
    const fresh = new LiveCluster()
    fresh.apply([...base, echo('api')].map(added))
    // The older hapedge refused the newer GRPCRoute on the HTTPRoute's listener as this one refuses it on no listener.
    const older = new LiveCluster()
    older.apply([...base, echo('nope')].map(added))
    expect(older.files().get(FILES.prefixMap)).not.toContain('/hapedge.Echo')
    const old = olderSnapshot(older, fresh, { layout: WHILE_KINDS_CONFLICTED, objects: ['GRPCRoute/default/echo'] })
    writeAfterUpgrade(old, older, fresh)
    expect(fresh.files().get(FILES.prefixMap)).toContain('/hapedge.Echo')
  })
})
