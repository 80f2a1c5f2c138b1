import { describe, expect, it } from 'vitest'
import { serverCacheBudget } from '../../../../functions/platforms/node-server/server-cache.ts'

const MiB = 1024 * 1024

describe('serverCacheBudget', () => {
  it('keeps the node caches within an eighth of a small heap, so a server started with --max-old-space-size=64 leaves room for its requests', () => {
    // What V8 reports as the heap limit under --max-old-space-size=64 (the young generation included).
    const budget = serverCacheBudget(112 * MiB)
    expect(budget.total).toBeLessThanOrEqual(14 * MiB)
    expect(budget.perCluster).toBeLessThanOrEqual(budget.total!)
  })

  it('keeps 64 MiB per cluster and 256 MiB in all where the heap is large', () => {
    expect(serverCacheBudget(4096 * MiB)).toMatchObject({ perCluster: 64 * MiB, total: 256 * MiB })
  })
})
