import { afterEach, describe, expect, it, vi } from 'vitest'
import { seededRandom } from '../../../bench/random.ts'
import { syntheticCluster } from '../../../bench/synthetic-cluster.ts'
import { fullRebuild } from '../../../core/render/full-rebuild.ts'
import { Tree } from '../../../core/tree/tree.ts'

afterEach(() => vi.restoreAllMocks())

describe('the full rebuild', () => {
  it('keeps its objects and indexes in memory without looking up its empty snapshot tree, key by key or range by range', () => {
    const get = vi.spyOn(Tree.prototype, 'get')
    const scan = vi.spyOn(Tree.prototype, 'scan')
    const rendered = fullRebuild(syntheticCluster(80, seededRandom(80)))
    expect(rendered.model.hosts.size).toBeGreaterThan(80)
    expect(get).not.toHaveBeenCalled()
    // What is left are the scans of whole tables (every Service, every invalid object), a few per rebuild, not one per host or object.
    expect(scan.mock.calls.length).toBeLessThan(10)
  })
})
