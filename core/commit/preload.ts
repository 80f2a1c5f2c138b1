import { fileShape } from '../generation/file-shapes.ts'
import type { LikelyReads } from '../incremental/likely-reads.ts'
import { MissingNodes, type TreeRoot } from '../tree/node.ts'
import { Tree } from '../tree/tree.ts'
import type { NodeLoader } from '../reading/node-loader.ts'

type Missing = Map<string, { space: string; sha256: string }>

/**
 * Loads the paths to many keys together: each round descends every key as far as the cache
 * allows (snapshot keys, and file entries once the manifest names their file's root) and loads
 * all the nodes that stopped them, so the round trips are the trees' depth, not the keys times
 * the depth.
 */
export async function preload(snapshot: Tree, manifest: Tree, reads: LikelyReads, loader: NodeLoader): Promise<void> {
  for (;;) {
    const missing: Missing = new Map()
    for (const key of reads.snapshot) descend(snapshot, key, missing)
    for (const [path, keys] of reads.files) {
      const entry = descend(manifest, path, missing)
      if (entry === undefined) continue
      const root = JSON.parse(entry) as TreeRoot
      const shape = fileShape(path)
      if (!shape) {
        if (!manifest.context.nodes.has(root.sha256)) missing.set(root.sha256, { space: manifest.shape.space, sha256: root.sha256 })
        continue
      }
      const file = new Tree(shape, root, manifest.context)
      for (const key of keys) descend(file, key, missing)
    }
    if (missing.size === 0) return
    await loader.load([...missing.values()])
  }
}

/** The key's value if its path is loaded; otherwise notes the node that is missing. */
function descend(tree: Tree, key: string, missing: Missing): string | undefined {
  try {
    return tree.get(key)
  } catch (error) {
    if (!(error instanceof MissingNodes)) throw error
    for (const node of error.nodes) missing.set(node.sha256, node)
    return undefined
  }
}
