import { describe, expect, it } from 'vitest'
import { LiveCluster } from '../../../core/incremental/live-cluster.ts'
import { FILES } from '../../../core/render/files.ts'
import { added, app } from '../../support/contracts/cluster-apps.ts'
import { gateway, gatewayClass, httpRoute } from '../../support/gateway-objects.ts'
import { olderSnapshot, writeAfterUpgrade } from '../../support/older-layout.ts'

/** The last layout whose names with an HTTPRoute of their own were served by that route alone (no fall-through map). */
const WITHOUT_FALL_THROUGH = 61

/** The last layout whose listeners' own hostnames fell through too (before listener isolation). */
const LISTENER_HOSTNAMES_FELL_THROUGH = 64

describe('a snapshot written before a name fell through to the wildcard routes above it', () => {
  it('writes the fall-through map and the frontend rounds at its next write, byte-equal to a fresh snapshot', () => {
    const route = (name: string, hostnames: string[], path: string, sectionName = 'web') =>
      httpRoute({ name, hostnames, parents: [{ name: 'edge', sectionName }], rules: [{ matches: [{ value: path }], backends: [{ service: 'app-1' }] }] })
    const base = [...app(1), gatewayClass(), gateway('edge', [{ name: 'web' }]), route('wide', ['*.example.com'], '/page')]
    const fresh = new LiveCluster()
    fresh.apply([...base, route('api', ['api.example.com'], '/api')].map(added))
    expect(fresh.files().get(FILES.fallThroughMap)).toBe('*.example.com example.com\napi.example.com api.example.com\n')
    expect(fresh.files().get(FILES.frontend)).toContain(FILES.fallThroughMap)
    // The older hapedge had neither the map nor the flag on its hosts: as this one with the routes attached nowhere.
    const older = new LiveCluster()
    older.apply([...base.slice(0, -1), route('wide', ['*.example.com'], '/page', 'nope'), route('api', ['api.example.com'], '/api', 'nope')].map(added))
    expect(older.files().get(FILES.frontend)).not.toContain(FILES.fallThroughMap)
    const old = olderSnapshot(older, fresh, {
      layout: WITHOUT_FALL_THROUGH,
      objects: ['HTTPRoute/default/wide', 'HTTPRoute/default/api'],
      missingFiles: [FILES.fallThroughMap],
    })
    writeAfterUpgrade(old, older, fresh)
  })

  it("takes a listener's own hostname out of the map at its next write, byte-equal to a fresh snapshot", () => {
    const api = httpRoute({ name: 'api', hostnames: ['api.example.com'], rules: [{ matches: [{ value: '/api' }], backends: [{ service: 'app-1' }] }] })
    const base = [...app(1), gatewayClass(), api]
    const fresh = new LiveCluster()
    fresh.apply([...base, gateway('edge', [{ name: 'web', hostname: 'api.example.com' }])].map(added))
    expect(fresh.files().get(FILES.fallThroughMap)).toBe('')
    // Layout 64 put every host HTTPRoutes alone serve in the map: as this one does for a listener without hostname.
    const older = new LiveCluster()
    older.apply([...base, gateway('edge', [{ name: 'web' }])].map(added))
    expect(older.files().get(FILES.fallThroughMap)).toBe('api.example.com api.example.com\n')
    const old = olderSnapshot(older, fresh, { layout: LISTENER_HOSTNAMES_FELL_THROUGH, objects: ['Gateway/default/edge'] })
    writeAfterUpgrade(old, older, fresh)
  })
})
