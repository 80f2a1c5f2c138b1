import type { NewNode, TreeRoot } from '../tree/node.ts'
import { utf8Length } from '../tree/tree-shape.ts'
import { Tree, type TreeContext } from '../tree/tree.ts'
import { unloadedOnPaths, type UnloadedNode } from '../tree/unloaded-paths.ts'
import { fileShape, keptWhenEmpty } from './file-shapes.ts'
import { MANIFEST_SHAPE } from './manifest.ts'
import { runToEnd } from '../slices.ts'

interface OpenFile {
  /** The file as the manifest has it (undefined: absent). */
  root?: TreeRoot
  /** A large file: its chunk tree, pending entry writes, and the change in entry count. */
  tree?: Tree
  entries: Map<string, string | undefined>
  delta: number
  /** A small file: its pending whole text (undefined: delete it). */
  text?: { value: string | undefined }
}

export interface FinishedFiles {
  manifest: Tree
  /** New file content (whole small files and chunks), and new metadata (chunk lists, manifest nodes). */
  created: Created
  /** Paths whose content changed. */
  changed: Set<string>
}

export interface Created {
  content: NewNode[]
  metadata: NewNode[]
}

/**
 * A generation's files, opened on demand from its manifest: a small file is read and written
 * whole, a large one entry by entry (a map line, a backend section). Writes wait until
 * `finish()`, which edits each changed file's chunk tree and then the manifest.
 */
export class FileSet {
  private readonly open = new Map<string, OpenFile>()

  constructor(
    private readonly manifest: Tree,
    private readonly context: TreeContext,
  ) {}

  /** A small file's text, or undefined when it is absent. */
  text(path: string): string | undefined {
    const file = this.file(path)
    if (file.text) return file.text.value
    return file.root && this.context.nodes.loadedText(MANIFEST_SHAPE.space, file.root.sha256)
  }

  /** Sets (or, with undefined, deletes) a small file; says whether its content changed. */
  setText(path: string, text: string | undefined): boolean {
    if (this.text(path) === text) return false
    this.file(path).text = { value: text }
    return true
  }

  /** Opens a file so that `finish()` writes it even unchanged: a new cluster's empty maps. */
  ensure(path: string): void {
    this.file(path)
  }

  /** One entry of a large file. */
  entry(path: string, key: string): string | undefined {
    const file = this.file(path)
    return file.entries.has(key) ? file.entries.get(key) : this.treeOf(path, file).get(key)
  }

  /** Sets (or deletes) one entry of a large file; says whether it changed. */
  setEntry(path: string, key: string, text: string | undefined): boolean {
    const before = this.entry(path, key)
    if (before === text) return false
    const file = this.file(path)
    file.entries.set(key, text)
    file.delta += (text === undefined ? 0 : 1) - (before === undefined ? 0 : 1)
    return true
  }

  /** How many entries a large file has now. */
  count(path: string): number {
    const file = this.file(path)
    return this.treeOf(path, file).count + file.delta
  }

  /** The nodes finishing lacks on the paths to the large files' pending entries (see unloadedOnPaths), added to `into`. */
  unloadedOnPaths(into: Map<string, UnloadedNode>): Map<string, UnloadedNode> {
    for (const [path, file] of this.open) {
      if (file.text || file.entries.size === 0 || !fileShape(path)) continue
      unloadedOnPaths(this.treeOf(path, file), [...file.entries.keys()].sort(), into)
    }
    return into
  }

  finish(): FinishedFiles {
    return runToEnd(this.finishing())
  }

  /** `finish` as steps (see Tree.editing), for a change run in slices; `named`: the caller has walked the paths unloadedOnPaths walks. */
  *finishing(named = false): Generator<void, FinishedFiles> {
    const created: Created = { content: [], metadata: [] }
    const manifestEdits = new Map<string, string | undefined>()
    for (const [path, file] of this.open) {
      const root = yield* this.finishFile(path, file, created, named)
      if (root?.sha256 !== file.root?.sha256) manifestEdits.set(path, root && JSON.stringify(root))
    }
    const edited = yield* this.manifest.editing(manifestEdits)
    created.metadata.push(...edited.created)
    return { manifest: edited.tree, created, changed: new Set(manifestEdits.keys()) }
  }

  private *finishFile(path: string, file: OpenFile, created: Created, named: boolean): Generator<void, TreeRoot | undefined> {
    if (file.text) {
      const text = file.text.value
      if (text === undefined) return undefined
      const sha256 = this.context.hash(text)
      this.context.nodes.addMade(sha256, text)
      created.content.push({ space: MANIFEST_SHAPE.space, sha256, text, level: 0 })
      return { sha256, level: 0, count: 1, weight: utf8Length(text) }
    }
    if (!fileShape(path) || (file.entries.size === 0 && file.root)) return file.root
    const tree = this.treeOf(path, file)
    const edited = yield* tree.editing(file.entries, named)
    for (const node of edited.created) (node.level === 0 ? created.content : created.metadata).push(node)
    if (edited.tree.count > 0) return edited.tree.root
    if (!keptWhenEmpty(path)) return undefined
    // An empty file is its empty leaf, which an edit that ends empty may not have made anew.
    created.content.push({ space: tree.shape.space, sha256: edited.tree.root.sha256, text: tree.shape.codec.encode([]), level: 0 })
    return edited.tree.root
  }

  private file(path: string): OpenFile {
    let file = this.open.get(path)
    if (!file) {
      const value = this.manifest.get(path)
      file = { entries: new Map(), delta: 0 }
      if (value !== undefined) file.root = JSON.parse(value) as TreeRoot
      this.open.set(path, file)
    }
    return file
  }

  private treeOf(path: string, file: OpenFile): Tree {
    const shape = fileShape(path)
    if (!shape) throw new Error(`${path} is not a chunked file`)
    return (file.tree ??= file.root ? new Tree(shape, file.root, this.context) : Tree.empty(shape, this.context).tree)
  }
}
