import { fileShape } from '../generation/file-shapes.ts'
import { MANIFEST_SHAPE, parseManifest } from '../generation/manifest.ts'
import { SNAPSHOT_SHAPE } from '../snapshot/keyspace.ts'
import { isLeaf, type TreeRoot } from '../tree/node.ts'
import type { TreeShape } from '../tree/tree-shape.ts'
import type { TreeContext } from '../tree/tree.ts'
import type { Head } from './head.ts'
import type { NodeLoader } from './node-loader.ts'

interface Pending {
  sha256: string
  level: number
  /** The tree the node belongs to; none for a small file's blob. */
  shape?: TreeShape
}

export interface WalkOptions {
  /** Load file chunks and snapshot leaves too (to read or verify a generation), not only the nodes that point to others. */
  leaves: boolean
  /** Addresses already visited: a subtree seen once is not walked again (nodes are content-addressed). */
  seen?: Set<string>
}

/**
 * Every node a generation references, visited level by level so that each level's nodes load
 * in parallel: the manifest record, the manifest tree, each file's chunk tree, and (from a
 * HEAD) the snapshot tree. Returns the addresses reached, by space.
 */
export async function walkGeneration(start: { manifest: string; snapshot?: Head['snapshot'] }, loader: NodeLoader, context: TreeContext, options: WalkOptions): Promise<Set<string>> {
  const seen = options.seen ?? new Set<string>()
  const reached = new Set<string>()
  const reach = (space: string, sha256: string) => {
    reached.add(`${space}/${sha256}`)
    if (seen.has(`${space}/${sha256}`)) return false
    seen.add(`${space}/${sha256}`)
    return true
  }
  const manifest = parseManifest(await loader.text('blobs', start.manifest))
  reach('blobs', start.manifest)
  let frontier: Pending[] = []
  const push = (shape: TreeShape | undefined, root: Pick<TreeRoot, 'sha256' | 'level'>) => {
    if (reach(shape?.space ?? 'blobs', root.sha256)) frontier.push({ sha256: root.sha256, level: root.level, ...(shape ? { shape } : {}) })
  }
  push(MANIFEST_SHAPE, manifest.tree)
  if (start.snapshot) push(SNAPSHOT_SHAPE, start.snapshot)

  while (frontier.length > 0) {
    // Leaves point nowhere, except the manifest's, which name the files.
    const expands = (item: Pending) => item.level > 0 || item.shape === MANIFEST_SHAPE
    const mustLoad = frontier.filter((item) => expands(item) || options.leaves)
    await loader.load(mustLoad.filter((item) => !context.nodes.has(item.sha256)).map((item) => ({ space: item.shape?.space ?? 'blobs', sha256: item.sha256 })))
    const expanding = mustLoad.filter(expands)
    frontier = []
    for (const { shape, sha256, level } of expanding) {
      const node = context.nodes.node(shape!, sha256, level)
      if (!isLeaf(node)) for (const child of node.children) push(shape, { sha256: child.sha256, level: level - 1 })
      else for (const entry of node.entries) push(fileShape(entry.key), JSON.parse(entry.value) as TreeRoot)
    }
  }
  return reached
}
