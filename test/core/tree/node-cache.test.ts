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

  it('keeps what a hold read until it is released, up to the room it was given, beside the budget', () => {
    const cache = new NodeCache(100)
    const leaf = '["k","v"]\n'
    for (let i = 0; i < 10; i++) cache.add(`n${i}`, leaf)
    // Room for three nodes: n0, n1 and n2 are held as read, n3 is read beyond it.
    cache.hold(30)
    for (const n of [0, 1, 2, 3]) cache.node(shape, `n${n}`, 0)
    for (let i = 10; i < 30; i++) cache.add(`n${i}`, leaf)
    expect([0, 1, 2].map((n) => cache.has(`n${n}`))).toEqual([true, true, true])
    expect(cache.has('n3')).toBe(false)
    expect(cache.bytes).toBeLessThanOrEqual(100 + 30)
    cache.release()
    for (let i = 30; i < 50; i++) cache.add(`n${i}`, leaf)
    expect([0, 1, 2].some((n) => cache.has(`n${n}`))).toBe(false)
  })

  it('keeps a hold beside its budget, says when a read found no room left, and evicts down to the budget on release', () => {
    const cache = new NodeCache(30, 50)
    const leaf = '["k","v"]\n'
    cache.hold(cache.holdChars)
    for (let i = 0; i < 5; i++) cache.add(`n${i}`, leaf)
    expect(cache.holdExceeded).toBe(false)
    // Five held nodes and three warm ones: the budget bounds the warm ones alone.
    for (let i = 5; i < 8; i++) cache.add(`n${i}`, leaf)
    expect(cache.count).toBe(8)
    expect(cache.holdExceeded).toBe(true)
    cache.release()
    expect(cache.holdExceeded).toBe(false)
    expect(cache.bytes).toBeLessThanOrEqual(30)
  })

  it('never spends a hold on the nodes a change makes: they are kept until forgetMade', () => {
    const cache = new NodeCache(20, 20)
    const leaf = '["k","v"]\n'
    cache.hold(cache.holdChars)
    for (let i = 0; i < 5; i++) cache.addMade(`m${i}`, leaf)
    expect(cache.holdExceeded).toBe(false)
    expect([0, 1, 2, 3, 4].every((n) => cache.text(`m${n}`) === leaf)).toBe(true)
  })

  it('stays over budget while only held nodes are left, and comes back within it once released', () => {
    const cache = new NodeCache(50)
    const leaf = '["k","v"]\n'
    cache.hold(1000)
    for (let i = 0; i < 10; i++) cache.add(`n${i}`, leaf)
    expect(cache.count).toBe(10)
    cache.release()
    cache.add('n10', leaf)
    expect(cache.bytes).toBeLessThanOrEqual(50)
  })
})
