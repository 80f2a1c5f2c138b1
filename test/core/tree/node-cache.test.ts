import { describe, expect, it } from 'vitest'
import { NodeCache } from '../../../core/tree/node-cache.ts'
import { jsonLines, type TreeShape } from '../../../core/tree/tree-shape.ts'

const shape: TreeShape = { space: 'nodes', codec: jsonLines, leafTarget: 4, branchTarget: 4 }

describe('a bounded node cache', () => {
  it('passes over a node read since the sweep last passed it, and forgets the ones not read', () => {
    const cache = new NodeCache(100)
    // Ten leaves of ten characters fill it.
    const leaf = '["k","v"]\n'
    for (let i = 0; i < 10; i++) cache.add(`n${i}`, leaf)
    cache.add('n10', leaf)
    // The first sweep found every node new: n0 went. Read n1 now, and the next sweep passes over it.
    expect(cache.has('n0')).toBe(false)
    cache.node(shape, 'n1', 0)
    cache.add('n11', leaf)
    expect(cache.has('n1')).toBe(true)
    expect(cache.has('n2')).toBe(false)
    expect(cache.bytes).toBeLessThanOrEqual(100)
  })
})
