import { fileShape } from '../generation/file-shapes.ts'
import type { LikelyReads } from '../incremental/likely-reads.ts'
import { isLeaf, MissingNodes, type TreeRoot } from '../tree/node.ts'
import { Tree } from '../tree/tree.ts'
import { loadRanges, type KeyRange } from '../reading/load-range.ts'
import type { NodeLoader } from '../reading/node-loader.ts'
import { runLoading } from '../reading/run-loading.ts'
import { TABLE, treeKey } from '../snapshot/tables.ts'

type Missing = Map<string, { space: string; sha256: string }>

/**
 * Loads the paths to many keys together: each round descends every key as far as the cache
 * allows (snapshot keys, and file entries once the manifest names their file's root) and loads
 * all the nodes that stopped them, so the round trips are the trees' depth, not the keys times
 * the depth.
 */
export async function preload(snapshot: Tree, manifest: Tree, reads: LikelyReads, loader: NodeLoader): Promise<void> {
  await loadPaths(snapshot, manifest, reads, loader)
  const followed = await memberObjectKeys(snapshot, reads.memberObjects ?? [], loader)
  if (followed.length > 0) await loadPaths(snapshot, manifest, { snapshot: followed, files: new Map() }, loader)
}

/**
 * The object keys the indexes under `prefixes` list, their ranges loaded a level per round: the
 * engine reads each member's object next, and found one miss at a time, each rerunning the change.
 */
async function memberObjectKeys(snapshot: Tree, prefixes: readonly string[], loader: NodeLoader): Promise<string[]> {
  if (prefixes.length === 0) return []
  const ranges = prefixes.map((prefix) => [prefix, `${prefix}\uffff`] as const)
  await loadRanges(snapshot, ranges, loader)
  return runLoading(
    () => ranges.flatMap(([from, to]) => [...snapshot.scan(from, to)].map((entry) => treeKey(TABLE.object, entry.key.slice(from.length)))),
    loader,
  )
}

async function loadPaths(snapshot: Tree, manifest: Tree, reads: LikelyReads, loader: NodeLoader): Promise<void> {
  const paths = new Set([...reads.files.keys(), ...(reads.fileRanges?.keys() ?? [])])
  for (;;) {
    const missing: Missing = new Map()
    for (const key of reads.snapshot) descend(snapshot, key, missing)
    for (const path of paths) {
      const entry = descend(manifest, path, missing)
      if (entry === undefined) continue
      const root = JSON.parse(entry) as TreeRoot
      const shape = fileShape(path)
      if (!shape) {
        if (!manifest.context.nodes.has(root.sha256)) missing.set(root.sha256, { space: manifest.shape.space, sha256: root.sha256 })
        continue
      }
      const file = new Tree(shape, root, manifest.context)
      for (const key of reads.files.get(path) ?? []) descend(file, key, missing)
      for (const range of reads.fileRanges?.get(path) ?? []) descendRange(file, range, missing)
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

/** Notes the nodes missing below the loaded part of the tree's nodes that hold keys in `[from, to)`. */
function descendRange(tree: Tree, [from, to]: KeyRange, missing: Missing): void {
  const { shape, context } = tree
  const visit = (sha256: string, level: number) => {
    if (!context.nodes.has(sha256)) {
      missing.set(sha256, { space: shape.space, sha256 })
      return
    }
    const node = context.nodes.node(shape, sha256, level)
    if (isLeaf(node)) return
    // A child holds the keys after its left neighbour's last key, up to and with its own.
    let after: string | undefined
    for (const child of node.children) {
      if (child.key >= from && (after === undefined || after < to)) visit(child.sha256, level - 1)
      after = child.key
    }
  }
  visit(tree.root.sha256, tree.root.level)
}
