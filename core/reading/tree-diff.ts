import { isLeaf, type TreeEntry, type TreeRoot } from '../tree/node.ts'
import type { TreeShape } from '../tree/tree-shape.ts'
import type { TreeContext } from '../tree/tree.ts'
import type { NodeLoader } from './node-loader.ts'

/** One key whose value differs between two trees: absent before (added), absent after (removed), or both (changed). */
export interface EntryChange {
  key: string
  before?: string
  after?: string
}

/** A node still to compare; its keys are all above `after` (none: no lower bound). */
interface Pending {
  sha256: string
  level: number
  after: string | undefined
}

/**
 * The entries that differ between two trees of one shape, for keys `from <= key < to`. Both
 * sides are opened top down, level by level, and a subtree whose address both sides hold is
 * dropped from both: prolly trees cut nodes on keys alone, so what did not change lines up and
 * is skipped whole. The cost is the nodes on the paths to what changed, not the trees.
 */
export async function diffTrees(
  shape: TreeShape,
  before: TreeRoot | undefined,
  after: TreeRoot | undefined,
  loader: NodeLoader,
  context: TreeContext,
  from = '',
  to = '\uffff',
): Promise<EntryChange[]> {
  const start = (root: TreeRoot | undefined): Pending[] => (root ? [{ sha256: root.sha256, level: root.level, after: undefined }] : [])
  let left = start(before)
  let right = start(after)
  for (;;) {
    const rightSide = new Set(right.map((node) => node.sha256))
    const shared = new Set(left.map((node) => node.sha256).filter((sha256) => rightSide.has(sha256)))
    left = left.filter((node) => !shared.has(node.sha256))
    right = right.filter((node) => !shared.has(node.sha256))
    const top = Math.max(0, ...left.map((node) => node.level), ...right.map((node) => node.level))
    const opening = [...left, ...right].filter((node) => node.level === top)
    await loader.load(opening.filter((node) => !context.nodes.has(node.sha256)).map((node) => ({ space: shape.space, sha256: node.sha256 })))
    if (top === 0) break
    const open = (nodes: Pending[]) => nodes.flatMap((node) => (node.level === top ? childrenInRange(shape, node, context, from, to) : [node]))
    left = open(left)
    right = open(right)
  }
  const entriesOf = (nodes: Pending[]) => new Map(nodes.flatMap((node) => leafEntries(shape, node, context, from, to)).map((entry) => [entry.key, entry.value]))
  const old = entriesOf(left)
  const now = entriesOf(right)
  const changes: EntryChange[] = []
  for (const key of [...new Set([...old.keys(), ...now.keys()])].sort()) {
    const was = old.get(key)
    const is = now.get(key)
    if (was !== is) changes.push({ key, ...(was !== undefined ? { before: was } : {}), ...(is !== undefined ? { after: is } : {}) })
  }
  return changes
}

function childrenInRange(shape: TreeShape, node: Pending, context: TreeContext, from: string, to: string): Pending[] {
  const decoded = context.nodes.node(shape, node.sha256, node.level)
  if (isLeaf(decoded)) return [{ ...node, level: 0 }]
  const children: Pending[] = []
  let previous = node.after
  for (const child of decoded.children) {
    if (previous !== undefined && previous >= to) break
    if (child.key >= from) children.push({ sha256: child.sha256, level: node.level - 1, after: previous })
    previous = child.key
  }
  return children
}

function leafEntries(shape: TreeShape, node: Pending, context: TreeContext, from: string, to: string): TreeEntry[] {
  const decoded = context.nodes.node(shape, node.sha256, 0)
  return isLeaf(decoded) ? decoded.entries.filter((entry) => entry.key >= from && entry.key < to) : []
}
