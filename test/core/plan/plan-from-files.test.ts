import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { planFromFiles } from '../../../core/plan/plan-from-files.ts'
import { LiveCluster } from '../../../core/incremental/live-cluster.ts'
import type { Plan } from '../../../core/plan/plan.ts'
import type { WatchEvent } from '../../../core/incremental/watch-event.ts'
import { arbitraryObject, identityOf } from '../../support/arbitrary-objects.ts'
import { app } from '../../support/contracts/cluster-apps.ts'
import { BACKEND_SNIPPET } from '../../../core/kube/service.ts'
import { FILES } from '../../../core/render/files.ts'
import { SET_TIMEOUT_RULES } from '../../../core/render/render-timeouts.ts'
import { endpointSlice, service } from '../../support/objects.ts'
import { runs } from '../../support/property-runs.ts'

const sortedServers = (plan: Plan) => [...plan.servers].sort((a, b) => `${a.backend}/${a.server}`.localeCompare(`${b.backend}/${b.server}`))
const mapKeys = (plan: Plan) => plan.maps.map((change) => `${change.map} ${change.key} ${change.value ?? '∅'}`).sort()

describe('the plan an agent finds by comparing files', () => {
  it('applies endpoints at runtime and asks a reload for a new backend', () => {
    const cluster = new LiveCluster()
    cluster.apply(app(1).map((object) => ({ type: 'ADDED', object: object as Record<string, unknown> })))
    const before = cluster.files()
    cluster.apply([{ type: 'MODIFIED', object: endpointSlice('app-1', ['10.0.0.1', '10.0.0.2', '10.0.0.3']) as Record<string, unknown> }])
    const scaled = planFromFiles(before, cluster.files())
    expect(scaled).toMatchObject({ reload: false, maps: [], certificates: [] })
    expect(scaled.servers.map((change) => `${change.op} ${change.server} ${change.address}`)).toEqual([
      'set s1 10.0.0.1:8080',
      'set s2 10.0.0.2:8080',
      'add s3 10.0.0.3:8080',
      'add s4 127.0.0.1:1',
    ])
    const grown = cluster.files()
    cluster.apply(app(2).map((object) => ({ type: 'ADDED', object: object as Record<string, unknown> })))
    expect(planFromFiles(grown, cluster.files())).toMatchObject({ reload: true, reasons: ['backend default_app-2_80 is new'] })
  })

  it('is the same plan whatever order the changed paths come in: its reasons in path order', () => {
    const before = new Map([[FILES.frontend, 'frontend a\n']])
    const after = new Map([
      [FILES.frontend, 'frontend b\n'],
      ['05-userlists.cfg', 'userlist u\n'],
    ])
    // The files' own order (a new file last) and the manifests' trees' (path order) once gave their reasons in two orders.
    const reasons = ['05-userlists.cfg is new', '10-frontend.cfg changed']
    expect(planFromFiles(before, after).reasons).toEqual(reasons)
    expect(planFromFiles(before, after, new Map(), ['10-frontend.cfg', '05-userlists.cfg']).reasons).toEqual(reasons)
    expect(planFromFiles(before, after, new Map(), ['05-userlists.cfg', '10-frontend.cfg'])).toEqual(planFromFiles(before, after))
  })

  it('moves the servers of a backend with a snippet at runtime, and reloads when its snippet changes', () => {
    const withSnippet = (snippet: string) => ({
      type: 'MODIFIED' as const,
      object: service('app-1', [{ port: 80 }], 'default', { [BACKEND_SNIPPET]: snippet }) as Record<string, unknown>,
    })
    const cluster = new LiveCluster({ snippets: 'allowed' })
    cluster.apply([
      ...app(1).map((object) => ({ type: 'ADDED' as const, object: object as Record<string, unknown> })),
      withSnippet('http-response set-header X-Snippet yes'),
    ])
    expect(cluster.files().get(FILES.backends)).toContain(
      ['backend default_app-1_80', ...SET_TIMEOUT_RULES, '    http-response set-header X-Snippet yes', '    server s1 '].join('\n'),
    )
    const before = cluster.files()
    const scaled = cluster.apply([{ type: 'MODIFIED', object: endpointSlice('app-1', ['10.0.0.9']) as Record<string, unknown> }])
    expect(scaled.plan.reload).toBe(false)
    expect(planFromFiles(before, cluster.files())).toMatchObject({ reload: false, servers: [{ op: 'set', server: 's1', address: '10.0.0.9:8080' }] })
    const edited = cluster.files()
    const changed = cluster.apply([withSnippet('http-response set-header X-Snippet no')])
    expect(changed.plan).toMatchObject({ reload: true, reasons: ["backend default_app-1_80's configuration snippet changed"] })
    expect(planFromFiles(edited, cluster.files())).toMatchObject({ reload: true, reasons: ['backend default_app-1_80 changed beyond its servers'] })
  })

  it('agrees with the engine’s own plan on every step of any event sequence: reload or not, server slots, map entries (with and without snippets)', () => {
    fc.assert(
      fc.property(
        fc.array(arbitraryObject, { minLength: 1, maxLength: 30 }),
        fc.constantFrom('forbidden' as const, 'allowed' as const),
        (objects, snippets) => {
          const cluster = new LiveCluster({ snippets })
          const seen = new Set<string>()
          for (const object of objects) {
            const before = cluster.files()
            const event: WatchEvent = { type: seen.has(identityOf(object)) ? 'MODIFIED' : 'ADDED', object: object as Record<string, unknown> }
            seen.add(identityOf(object))
            const { plan } = cluster.apply([event])
            const found = planFromFiles(before, cluster.files())
            expect(found.reload).toBe(plan.reload)
            if (plan.reload) continue
            expect(sortedServers(found)).toEqual(sortedServers(plan))
            expect(mapKeys(found)).toEqual(mapKeys(plan))
            expect([...found.certificates].sort()).toEqual([...plan.certificates].sort())
          }
        },
      ),
      // A whole event sequence per case: 120 keep it within a third of its timeout on two loaded cores.
      { numRuns: runs(120) },
    )
  }, 30_000)
})
