import { describe, expect, it, vi } from 'vitest'
import type { CommitContext } from '../../../core/commit/commit-events.ts'
import { clusterOverview } from '../../../core/fleet/cluster-overview.ts'
import { ingest } from '../../../core/ingest/ingest.ts'
import { statusOfHead } from '../../../core/status/status-of-head.ts'
import { readHead } from '../../../core/reading/read-head.ts'
import { clusterKeys } from '../../../core/keys/cluster-keys.ts'
import { createMemoryStore } from '../../../functions/adapters/storage/memory-store.ts'
import { added, app, coldContext, instantClock } from '../../support/contracts/cluster-apps.ts'
import { ingress, ingressClass } from '../../support/objects.ts'

/** How many engines were built (each pass of a computation that loads what it lacks builds one). */
const builds = vi.hoisted(() => ({ count: 0 }))

vi.mock('../../../core/incremental/incremental-cluster.ts', async (original) => {
  const engine = await original<typeof import('../../../core/incremental/incremental-cluster.ts')>()
  class CountedCluster extends engine.IncrementalCluster {
    constructor(...args: ConstructorParameters<typeof engine.IncrementalCluster>) {
      super(...args)
      builds.count++
    }
  }
  return { ...engine, IncrementalCluster: CountedCluster }
})

const rejectedIngress = (name: string) => ingress({ name, rules: [{ host: `${name}_bad.example.com`, paths: [{ service: 'app-1' }] }] })

describe('a write builds the engine once', () => {
  it('to apply its events; its rejections, the status of HEAD and the overview read the snapshot it built without building another', async () => {
    const store = createMemoryStore()
    const ctx: CommitContext = { store, cluster: 'prod-eu', options: {}, context: coldContext(), clock: instantClock() }
    const objects = [ingressClass('hapedge', true), ...Array.from({ length: 20 }, (_, i) => app(i)).flat(), rejectedIngress('first')]

    builds.count = 0
    const first = await ingest(ctx, objects.map(added))
    expect(first.rejected).toEqual([expect.objectContaining({ object: 'Ingress default/first' })])
    expect(builds.count).toBe(1)

    builds.count = 0
    const second = await ingest(ctx, [added(rejectedIngress('second'))])
    expect(second.rejected).toEqual([expect.objectContaining({ object: 'Ingress default/second' })])
    expect(builds.count).toBe(1)

    builds.count = 0
    const { head } = (await readHead(store, clusterKeys('prod-eu')))!
    const status = await statusOfHead(ctx, head, [], new Date())
    const overview = await clusterOverview(store, 'prod-eu', () => ctx.context)
    expect(status.rejected.map((rejection) => rejection.object)).toEqual(['Ingress default/first', 'Ingress default/second'])
    expect(overview?.rejected).toEqual(status.rejected)
    expect(builds.count).toBe(0)
  })
})
