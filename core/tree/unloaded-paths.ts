import { isLeaf } from './node.ts'
import type { Tree } from './tree.ts'

export type UnloadedNode = { space: string; sha256: string }

/**
 * The nodes that stop the paths to `keys` (sorted) where the cache ends, all of them at once:
 * one walk down the loaded part of the tree, each node's keys shared out among its children.
 * A key above the last child's goes to the last child, as an edit inserting it does. An edit
 * found its missing nodes one at a time, each a rerun of the whole change that made it (at
 * 100,000 objects a commit of 16 Ingresses ran dozens of times): loaded together they cost a
 * round per level of the tree.
 */
export function unloadedOnPaths(tree: Tree, keys: readonly string[], into = new Map<string, UnloadedNode>()): Map<string, UnloadedNode> {
  if (keys.length > 0) visit(tree, tree.root.sha256, tree.root.level, keys, 0, keys.length, into)
  return into
}

function visit(tree: Tree, sha256: string, level: number, keys: readonly string[], from: number, to: number, into: Map<string, UnloadedNode>): void {
  const { nodes } = tree.context
  if (!nodes.has(sha256)) {
    into.set(sha256, { space: tree.shape.space, sha256 })
    return
  }
  const node = nodes.node(tree.shape, sha256, level)
  if (isLeaf(node)) return
  let next = from
  node.children.forEach((child, index) => {
    const last = index === node.children.length - 1
    let end = next
    while (end < to && (last || keys[end]! <= child.key)) end++
    if (end > next) visit(tree, child.sha256, level - 1, keys, next, end, into)
    next = end
  })
}
