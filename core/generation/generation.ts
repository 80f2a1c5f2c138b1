import { contentText, entryText, type Layout, type LayoutEntry } from '../render/files.ts'
import { isLeaf, type NewNode, type TreeEntry, type TreeRoot } from '../tree/node.ts'
import { utf8Length } from '../tree/tree-shape.ts'
import { Tree, type TreeContext } from '../tree/tree.ts'
import { fileShape } from './file-shapes.ts'
import { MANIFEST_SHAPE, manifestOf, serializeManifest, type Manifest } from './manifest.ts'

/** A generation's content: its manifest tree and root record, and the blobs made for it. */
export interface Generation {
  manifest: Tree
  record: { manifest: Manifest; text: string; sha256: string }
  created: NewNode[]
}

/** The root record of a manifest tree, named by its sha256. */
export function recordOf(manifest: Tree, context: TreeContext): Generation['record'] {
  const record = manifestOf(manifest)
  const text = serializeManifest(record)
  return { manifest: record, text, sha256: context.hash(text) }
}

/** The full-rebuild path: every file cut into chunks, every blob named, the manifest built. */
export function buildGeneration(layout: Layout, context: TreeContext): Generation {
  const created: NewNode[] = []
  const entries: { key: string; value: string }[] = []
  for (const [path, content] of layout) {
    let root: TreeRoot
    const shape = fileShape(path)
    if (typeof content === 'string' || !shape) {
      const text = contentText(content)
      const sha256 = context.hash(text)
      context.nodes.addMade(sha256, text)
      created.push({ space: MANIFEST_SHAPE.space, sha256, text, level: 0 })
      root = { sha256, level: 0, count: 1, weight: utf8Length(text) }
    } else {
      const built = Tree.build(shape, context, treeEntries(content), false)
      created.push(...built.created)
      if (content.length === 0) created.push({ space: shape.space, sha256: built.tree.root.sha256, text: '', level: 0 })
      root = built.tree.root
    }
    entries.push({ key: path, value: JSON.stringify(root) })
  }
  const manifest = Tree.build(
    MANIFEST_SHAPE,
    context,
    entries.sort((a, b) => (a.key < b.key ? -1 : 1)),
  )
  created.push(...manifest.created)
  return { manifest: manifest.tree, record: recordOf(manifest.tree, context), created }
}

/** Opens the manifest tree a root record names. */
export function manifestTree(manifest: Manifest, context: TreeContext): Tree {
  const root: TreeRoot = { ...manifest.tree, count: manifest.files, weight: manifest.size }
  return new Tree(MANIFEST_SHAPE, root, context)
}

/** Every file of a generation, whole (throws MissingNodes for what is not loaded). */
export function readFiles(manifest: Tree, context: TreeContext): Map<string, string> {
  const files = new Map<string, string>()
  for (const { key: path, value } of manifest.scan()) files.set(path, readFile(JSON.parse(value) as TreeRoot, context))
  return files
}

/** One file's text from its root: a blob, or the chunks under a chunk tree in order. */
export function readFile(root: TreeRoot, context: TreeContext): string {
  if (root.level === 0) return context.nodes.loadedText(MANIFEST_SHAPE.space, root.sha256)
  let text = ''
  for (const chunk of chunksOf(root, context)) text += context.nodes.loadedText(MANIFEST_SHAPE.space, chunk)
  return text
}

/** The addresses of a chunked file's leaves, in order. */
function chunksOf(root: TreeRoot, context: TreeContext): string[] {
  const chunks: string[] = []
  const walk = (sha256: string, level: number) => {
    if (level === 0) return void chunks.push(sha256)
    const node = context.nodes.node(MANIFEST_SHAPE, sha256, level)
    if (!isLeaf(node)) for (const child of node.children) walk(child.sha256, level - 1)
  }
  walk(root.sha256, root.level)
  return chunks
}

/**
 * A file's entries as its tree's, each made as the tree is cut to it: made all at once, a large
 * map's (tens of thousands of entries and texts) lived through collections, each copied twice.
 */
function* treeEntries(entries: readonly LayoutEntry[]): Generator<TreeEntry> {
  for (const entry of entries) yield { key: entry.key, value: entryText(entry) }
}
