import { describe, expect, it } from 'vitest'
import { CACHED_BYTES_PER_CHAR, serverCacheBudget } from '../../../../functions/platforms/node-server/server-cache.ts'

const MiB = 1024 * 1024

describe('serverCacheBudget', () => {
  it('keeps the node caches, decoded forms included, within an eighth of a small heap, so a server started with --max-old-space-size=64 leaves room for its requests', () => {
    // What V8 reports as the heap limit under --max-old-space-size=64 (the young generation included).
    const heapLimit = 112 * MiB
    const budget = serverCacheBudget(heapLimit)
    expect(budget.total! * CACHED_BYTES_PER_CHAR).toBeLessThanOrEqual(heapLimit / 8)
    // A cluster's warm nodes and what its commit holds beside them.
    expect((budget.perCluster + budget.hold!) * CACHED_BYTES_PER_CHAR).toBeLessThanOrEqual(heapLimit / 16)
  })

  it('keeps 64 MiB per cluster and at most 256 MiB in all where the heap is large', () => {
    expect(serverCacheBudget(4096 * MiB)).toMatchObject({ perCluster: 64 * MiB, total: Math.floor((4096 * MiB) / 8 / CACHED_BYTES_PER_CHAR) })
    expect(serverCacheBudget(16384 * MiB)).toMatchObject({ perCluster: 64 * MiB, total: 256 * MiB })
  })
})
