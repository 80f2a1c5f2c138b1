import { afterEach, describe, expect, it, vi } from 'vitest'
import { seededRandom } from '../../../bench/random.ts'
import { syntheticCluster } from '../../../bench/synthetic-cluster.ts'
import { syntheticGatewayCluster } from '../../../bench/synthetic-gateway.ts'
import { fullRebuild } from '../../../core/render/full-rebuild.ts'
import { Tree } from '../../../core/tree/tree.ts'

afterEach(() => vi.restoreAllMocks())

/** The snapshot tree's lookups of one full rebuild of a synthetic cluster of `ingresses` Ingresses. */
function lookups(ingresses: number) {
  const get = vi.spyOn(Tree.prototype, 'get')
  const scan = vi.spyOn(Tree.prototype, 'scan')
  const rendered = fullRebuild(syntheticCluster(ingresses, seededRandom(ingresses)))
  expect(rendered.model.hosts.size).toBeGreaterThan(ingresses)
  const counted = { gets: get.mock.calls.length, scans: scan.mock.calls.length }
  vi.restoreAllMocks()
  return counted
}

describe('the full rebuild', () => {
  it('keeps its objects and indexes in memory without looking up its empty snapshot tree, key by key or range by range', () => {
    const small = lookups(40)
    const large = lookups(160)
    expect(small.gets).toBe(0)
    expect(large.gets).toBe(0)
    // What is left are the scans of whole tables (every Service, every invalid object, each kind's table): a few per rebuild, as many at 160 Ingresses as at 40, not one per host or object.
    expect(large.scans).toBe(small.scans)
    expect(large.scans).toBeGreaterThan(0)
  })

  it("serves every HTTPRoute of the benchmark's Gateway cluster, so its httproute rows measure routes that are served", () => {
    const routes = 200
    const rendered = fullRebuild(syntheticGatewayCluster(routes, seededRandom(routes)))
    expect(rendered.model.rejections).toEqual([])
    expect(rendered.model.hosts.size).toBeGreaterThan(routes)
    expect(rendered.model.hosts.get('route-0.team-0.example.com')?.routes.length).toBeGreaterThan(0)
  })
})
