import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { clusterKeys } from '../../../core/keys/cluster-keys.ts'
import { NodeLoader } from '../../../core/reading/node-loader.ts'
import { diffTrees } from '../../../core/reading/tree-diff.ts'
import type { NewNode, TreeEntry } from '../../../core/tree/node.ts'
import { jsonLines, type TreeShape } from '../../../core/tree/tree-shape.ts'
import { Tree } from '../../../core/tree/tree.ts'
import { createMemoryStore } from '../../../functions/adapters/storage/memory-store.ts'
import { coldContext } from '../../support/contracts/cluster-apps.ts'
import { runs } from '../../support/property-runs.ts'

const keys = clusterKeys('diff')
const small: TreeShape = { space: 'nodes', codec: jsonLines, leafTarget: 4, branchTarget: 4 }

async function stored(shape: TreeShape, ...maps: Map<string, string>[]) {
  const store = createMemoryStore()
  const trees = maps.map((map) => {
    const entries: TreeEntry[] = [...map].sort(([a], [b]) => (a < b ? -1 : 1)).map(([key, value]) => ({ key, value }))
    return Tree.build(shape, coldContext(), entries)
  })
  const created: NewNode[] = trees.flatMap((tree) => tree.created)
  for (const node of created) await store.put(keys.node(node.space, node.sha256), node.text)
  const context = coldContext()
  const loader = new NodeLoader(store, keys, context)
  return { roots: trees.map((tree) => tree.tree.root), loader, context }
}

const mapArb = fc.dictionary(fc.string({ unit: fc.constantFrom('a', 'b', 'c', 'd', '/'), minLength: 1, maxLength: 4 }), fc.string({ maxLength: 2 }), {
  maxKeys: 60,
})

describe('diffTrees', () => {
  it('finds exactly the keys whose values differ, within the range asked', async () => {
    await fc.assert(
      fc.asyncProperty(mapArb, mapArb, fc.constantFrom('', 'b'), fc.constantFrom('\uffff', 'c'), async (a, b, from, to) => {
        const left = new Map(Object.entries(a))
        const right = new Map(Object.entries(b))
        const { roots, loader, context } = await stored(small, left, right)
        const expected = [...new Set([...left.keys(), ...right.keys()])].filter((key) => key >= from && key < to && left.get(key) !== right.get(key)).sort()
        const changes = await diffTrees(small, roots[0], roots[1], loader, context, from, to)
        expect(changes.map((change) => change.key)).toEqual(expected)
        for (const change of changes) expect([change.before, change.after]).toEqual([left.get(change.key), right.get(change.key)])
      }),
      { numRuns: runs(200) },
    )
  })

  it('reads the nodes on the paths to what changed, not the trees', async () => {
    const wide: TreeShape = { ...small, leafTarget: 32, branchTarget: 32 }
    const before = new Map(Array.from({ length: 50_000 }, (_, i) => [`key-${String(i).padStart(6, '0')}`, `v${i}`]))
    const after = new Map(before).set('key-012345', 'changed').set('key-040000', 'changed')
    after.delete('key-020000')
    const { roots, loader, context } = await stored(wide, before, after)
    const changes = await diffTrees(wide, roots[0], roots[1], loader, context)
    expect(changes.map((change) => change.key)).toEqual(['key-012345', 'key-020000', 'key-040000'])
    // Three paths of depth 4 on each side, against ~1,600 leaves per tree.
    expect(loader.stats.nodes).toBeLessThanOrEqual(3 * 4 * 2 + 2)
  })
})
