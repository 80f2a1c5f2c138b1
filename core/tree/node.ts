/** One key and its value: for the model a JSON text, for a file the text of one line or section. */
export interface TreeEntry {
  key: string
  value: string
}

/**
 * A subtree as its parent names it: its last key, its address, how many entries it holds and
 * their weight (bytes of file content, or what the tree's shape counts).
 */
export interface ChildRef {
  key: string
  sha256: string
  count: number
  weight: number
}

/** A tree's root: a node's address and level (0 for a leaf), with the whole tree's count and weight. */
export interface TreeRoot {
  sha256: string
  level: number
  count: number
  weight: number
}

export type TreeNode = { level: 0; entries: TreeEntry[] } | { level: number; children: ChildRef[] }

/** A node made by a build or an edit: its text, stored under its sha256, and its summary. */
export interface NewNode {
  space: string
  sha256: string
  text: string
  level: number
}

export const isLeaf = (node: TreeNode): node is { level: 0; entries: TreeEntry[] } => node.level === 0

/** An internal node's text: its level, then one `[key, sha256, count, weight]` row per child. */
export function encodeInternal(level: number, children: readonly ChildRef[]): string {
  let text = `${level}\n`
  // The same text as JSON.stringify of each row, written out: this runs for every child of every node an edit rewrites.
  for (const child of children) text += `[${JSON.stringify(child.key)},"${child.sha256}",${child.count},${child.weight}]\n`
  return text
}

export function decodeInternal(text: string): { level: number; children: ChildRef[] } {
  const newline = text.indexOf('\n')
  const level = Number(text.slice(0, newline))
  if (!Number.isInteger(level) || level < 1) throw new Error(`not an internal tree node (level ${JSON.stringify(text.slice(0, newline))})`)
  // One parse for all rows: they are JSON arrays, one per line.
  const rows = JSON.parse(`[${text.slice(newline + 1, -1).replaceAll('\n', ',')}]`) as [string, string, number, number][]
  return { level, children: rows.map(([key, sha256, count, weight]) => ({ key, sha256, count, weight })) }
}

/** Thrown by a synchronous tree read that needs nodes not yet loaded; the caller loads them and runs again. */
export class MissingNodes extends Error {
  constructor(readonly nodes: readonly { space: string; sha256: string }[]) {
    super(`${nodes.length} tree node(s) not loaded: ${nodes.map((node) => `${node.space}/${node.sha256}`).join(', ')}`)
    this.name = 'MissingNodes'
  }
}
