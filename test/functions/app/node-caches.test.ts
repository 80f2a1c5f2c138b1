import { describe, expect, it } from 'vitest'
import { sha256Text } from '../../../core/hash.ts'
import { NodeCaches } from '../../../functions/app/services/node-caches.ts'

const fill = (caches: NodeCaches, cluster: string, characters: number) => {
  const text = 'x'.repeat(characters)
  caches.for(cluster).nodes.add(sha256Text(`${cluster}${text}`), text)
}

describe('NodeCaches', () => {
  it('keeps many small clusters within one total budget, and lets the least recently used go first', () => {
    const caches = new NodeCaches(sha256Text, { perCluster: 1_000, clusters: 100, total: 2_500 })
    for (const cluster of ['a', 'b']) fill(caches, cluster, 1_000)
    expect([caches.peek('a'), caches.peek('b')].every(Boolean)).toBe(true)
    caches.for('a') // a is now the most recent
    fill(caches, 'c', 1_000) // 3,000 characters: over the total, so the coldest (b) goes when a cache is next handed out
    caches.for('c')
    expect(caches.peek('b')).toBeUndefined()
    expect(caches.peek('a')?.nodes.bytes).toBe(1_000)
    expect(caches.peek('c')).toBeDefined()
  })

  it('lets a reader peek without making a cache warm-most, so reading every cluster evicts no writer', () => {
    const caches = new NodeCaches(sha256Text, { perCluster: 1_000, clusters: 2 })
    fill(caches, 'writer-1', 10)
    fill(caches, 'writer-2', 10)
    caches.peek('writer-1')
    fill(caches, 'writer-3', 10) // three clusters for two places: the least recently *used* goes
    expect(caches.peek('writer-1')).toBeUndefined()
    expect(caches.peek('writer-2')).toBeDefined()
  })

  it('never evicts the cache it is handing out, even when that one alone is over the total', () => {
    const caches = new NodeCaches(sha256Text, { perCluster: 10_000, clusters: 4, total: 100 })
    fill(caches, 'big', 5_000)
    expect(caches.for('big').nodes.bytes).toBe(5_000)
  })
})
