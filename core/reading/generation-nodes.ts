import { fileShape } from '../generation/file-shapes.ts'
import { MANIFEST_SHAPE } from '../generation/manifest.ts'
import { isLeaf, type TreeRoot } from '../tree/node.ts'
import type { TreeShape } from '../tree/tree-shape.ts'
import type { TreeContext } from '../tree/tree.ts'

/** A node of a generation, named by its parent: its address, its level, and the tree it belongs to (none for a small file's blob). */
export interface GenerationNode {
  sha256: string
  level: number
  shape?: TreeShape
}

export const spaceOf = (node: GenerationNode) => node.shape?.space ?? MANIFEST_SHAPE.space

export const rootNode = (shape: TreeShape | undefined, root: Pick<TreeRoot, 'sha256' | 'level'>): GenerationNode => ({
  sha256: root.sha256,
  level: root.level,
  ...(shape ? { shape } : {}),
})

/** Whether the node names others: an internal node, or a leaf of the manifest (whose entries are the files' roots). */
export const pointsOn = (node: GenerationNode) => node.level > 0 || node.shape === MANIFEST_SHAPE

/** The nodes a loaded node names (throws MissingNodes when it is not loaded). */
export function childrenOf(node: GenerationNode, context: TreeContext): GenerationNode[] {
  if (!pointsOn(node)) return []
  const decoded = context.nodes.node(node.shape!, node.sha256, node.level)
  if (!isLeaf(decoded)) return decoded.children.map((child) => rootNode(node.shape, { sha256: child.sha256, level: node.level - 1 }))
  return decoded.entries.map((entry) => rootNode(fileShape(entry.key), JSON.parse(entry.value) as TreeRoot))
}
