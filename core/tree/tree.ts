import type { HashText } from '../hash.ts'
import type { Gzip } from './node-body.ts'
import type { NodeCache } from './node-cache.ts'
import { encodeInternal, isLeaf, MissingNodes, type ChildRef, type NewNode, type TreeEntry, type TreeNode, type TreeRoot } from './node.ts'
import { unloadedOnPaths } from './unloaded-paths.ts'
import { MissedNodes } from './missed-nodes.ts'
import { endsNode, utf8Length, type TreeShape } from './tree-shape.ts'
import { runToEnd } from '../slices.ts'

/** Where a tree's nodes come from and how new ones are named (and stored: see node-body.ts). */
export interface TreeContext {
  nodes: NodeCache
  hash: HashText
  gzip?: Gzip
}

/** A change to one key: its new value, or undefined to remove it. */
export type TreeEdits = ReadonlyMap<string, string | undefined>

export interface Edited {
  tree: Tree
  /** Nodes this edit made that the old tree did not have: what a commit writes. */
  created: NewNode[]
}

type Item = { key: string }
type LevelEdit = [key: string, item: Item | undefined]

/** A node at some level, as the edit walks it: its items, its last key, and whether it ends its level. */
interface Visited {
  items: readonly Item[]
  ref: { key: string; sha256: string }
  isLast: boolean
}

/**
 * An immutable, content-addressed search tree whose node boundaries depend on keys alone
 * (a prolly tree): the same entries give the same root whatever order they came in, and an
 * edit rewrites the nodes on the paths to the edited keys, not their neighbours. Reads are
 * synchronous against a node cache and throw MissingNodes for what is not loaded yet, so the
 * same pure code serves an in-memory process and a stateless function that loads on demand.
 */
export class Tree {
  constructor(
    readonly shape: TreeShape,
    readonly root: TreeRoot,
    readonly context: TreeContext,
  ) {}

  /**
   * The tree of the given entries, which must be sorted by key and unique. Its leaves are cached
   * decoded, as an edit's are, unless `leavesDecoded` is false: a full build's hold every line of
   * every map, which the cache would then hold a second time beside the leaves' texts, while a
   * change reads back only the few it touches (and parses each once).
   */
  static build(shape: TreeShape, context: TreeContext, entries: Iterable<TreeEntry>, leavesDecoded = true): Edited {
    const created: NewNode[] = []
    const writer = new NodeWriter(shape, context, created, leavesDecoded)
    return { tree: writer.finish(writer.cut(0, entries), 0), created }
  }

  static empty(shape: TreeShape, context: TreeContext): Edited {
    return Tree.build(shape, context, [])
  }

  get count(): number {
    return this.root.count
  }

  get(key: string): string | undefined {
    return this.find(key, throwMissing)
  }

  /**
   * As get, but the first node of the key's path that is not loaded is handed to `unloaded` (and
   * the answer is undefined) instead of thrown: a caller that notes thousands of them (a cold
   * round of the commit's preload) builds no MissingNodes, an Error with its stack, for each.
   */
  find(key: string, unloaded: (node: { space: string; sha256: string }) => void): string | undefined {
    for (let [sha256, level] = [this.root.sha256, this.root.level]; ; ) {
      if (!this.context.nodes.has(sha256)) {
        unloaded({ space: this.shape.space, sha256 })
        return undefined
      }
      const node = this.node(sha256, level)
      if (isLeaf(node)) {
        const entry = node.entries[lowerBound(node.entries, key)]
        return entry?.key === key ? entry.value : undefined
      }
      const child = node.children.find((candidate) => candidate.key >= key)
      if (!child) return undefined
      sha256 = child.sha256
      level = node.level - 1
    }
  }

  /** The entries with `from <= key < to`, in key order. */
  *scan(from = '', to?: string): Generator<TreeEntry> {
    yield* this.scanNode(this.root.sha256, this.root.level, from, to)
  }

  /** The entries whose key starts with `prefix`. */
  prefix(prefix: string): Generator<TreeEntry> {
    return this.scan(prefix, `${prefix}\uffff`)
  }

  /**
   * How many entries have `from <= key < to`: subtrees wholly inside the range are counted from
   * their parent's row, so it reads the nodes along the range's two edges, not the range.
   */
  countRange(from: string, to: string): number {
    return this.countNode(this.root.sha256, this.root.level, undefined, from, to)
  }

  /** Every entry, for tests and for reading a whole (small) tree. */
  entries(): TreeEntry[] {
    return [...this.scan()]
  }

  edit(edits: TreeEdits): Edited {
    return runToEnd(this.editing(edits))
  }

  /**
   * `edit` as steps: it yields after each node it makes, so a large edit can be run in slices (runInSlices).
   * `named`: the caller has walked the edits' paths already (unloadedOnPaths, with other trees' for one
   * round of loads), so they are not walked again; a node evicted since is still met, level by level.
   */
  *editing(edits: TreeEdits, named = false): Generator<void, Edited> {
    const created: NewNode[] = []
    if (edits.size === 0) return { tree: this, created }
    const writer = new NodeWriter(this.shape, this.context, created)
    let levelEdits: LevelEdit[] = [...edits]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([key, value]) => [key, value === undefined ? undefined : { key, value }])
    // Every node the edit lacks on its keys' paths, named at once: found one at a time, each was a rerun of the change.
    const unloaded = named
      ? undefined
      : unloadedOnPaths(
          this,
          levelEdits.map(([key]) => key),
        )
    if (unloaded && unloaded.size > 0) throw new MissingNodes([...unloaded.values()])
    const replaced = new Set<string>()
    for (let level = 0; ; level++) {
      const missed = new MissedNodes()
      const { removed, added } = yield* this.editLevel(level, levelEdits, writer, missed)
      missed.check()
      for (const ref of removed) replaced.add(ref.sha256)
      if (level === this.root.level) {
        const tree = writer.finish(added, level)
        if (tree.root.sha256 === this.root.sha256) return { tree: this, created: [] }
        // A node re-made with the content it had is not new.
        return { tree, created: created.filter((node) => !replaced.has(node.sha256)) }
      }
      levelEdits = parentEdits(removed, added)
      if (levelEdits.length === 0) return { tree: this, created: [] }
    }
  }

  /**
   * Applies sorted edits to one level: each run starts at the node holding the first edit not
   * yet applied, takes in the following nodes for as long as the re-cut items do not end on a
   * boundary, and is replaced by the nodes the re-cut makes.
   */
  private *editLevel(
    level: number,
    edits: readonly LevelEdit[],
    writer: NodeWriter,
    missed: MissedNodes,
  ): Generator<void, { removed: Visited['ref'][]; added: ChildRef[] }> {
    const removed: Visited['ref'][] = []
    const added: ChildRef[] = []
    let next = 0
    while (next < edits.length) {
      let current: Visited | undefined = this.visit(level, edits[next]![0], false)
      let pending: Item[] = []
      while (current) {
        removed.push(current.ref)
        let end = next
        while (end < edits.length && (current.isLast || edits[end]![0] <= current.ref.key)) end++
        for (const item of mergeSorted(current.items, edits, next, end)) {
          pending.push(item)
          if (endsNode(this.shape, level, item, pending.length)) {
            added.push(writer.node(level, pending))
            pending = []
            yield
          }
        }
        next = end
        // The next node, which the re-cut takes in: one not loaded is noted and the level goes on, so the edit names all it lacks of this level at once.
        const at = current.ref.key
        current = pending.length > 0 && !current.isLast ? missed.attempt(() => this.visit(level, at, true)) : undefined
      }
      if (pending.length > 0) added.push(writer.node(level, pending))
    }
    return { removed, added }
  }

  /** The node at `level` holding `key` (the last node if no key is that large), or, with `after`, the node after the one ending at `key`. */
  private visit(level: number, key: string, after: boolean): Visited | undefined {
    let sha256 = this.root.sha256
    let lastKey: string | undefined
    let isLast = true
    for (let at = this.root.level; at > level; at--) {
      const node = this.node(sha256, at)
      if (isLeaf(node)) throw new Error(`tree node ${sha256} is a leaf at level ${at}`)
      let index = node.children.findIndex((child) => (after ? child.key > key : child.key >= key))
      if (index < 0) {
        if (after) return undefined
        index = node.children.length - 1
      }
      const child = node.children[index]!
      isLast &&= index === node.children.length - 1
      sha256 = child.sha256
      lastKey = child.key
    }
    if (after && level === this.root.level) return undefined
    const node = this.node(sha256, level)
    const items = isLeaf(node) ? node.entries : node.children
    return { items, ref: { key: lastKey ?? items[items.length - 1]?.key ?? '', sha256 }, isLast }
  }

  private *scanNode(sha256: string, level: number, from: string, to: string | undefined): Generator<TreeEntry> {
    const node = this.node(sha256, level)
    if (isLeaf(node)) {
      for (let i = lowerBound(node.entries, from); i < node.entries.length; i++) {
        const entry = node.entries[i]!
        if (to !== undefined && entry.key >= to) return
        yield entry
      }
      return
    }
    for (const child of node.children) {
      if (child.key < from) continue
      yield* this.scanNode(child.sha256, level - 1, from, to)
      if (to !== undefined && child.key >= to) return
    }
  }

  /** Entries in range under one node, whose keys are all above `after` (undefined: no bound). */
  private countNode(sha256: string, level: number, after: string | undefined, from: string, to: string): number {
    const node = this.node(sha256, level)
    if (isLeaf(node)) return node.entries.filter((entry) => entry.key >= from && entry.key < to).length
    let count = 0
    let previous = after
    for (const child of node.children) {
      if (previous !== undefined && previous >= to) break
      if (child.key >= from) {
        const startsInside = previous === undefined ? from === '' : previous >= from
        count += startsInside && child.key < to ? child.count : this.countNode(child.sha256, level - 1, previous, from, to)
      }
      previous = child.key
    }
    return count
  }

  private node(sha256: string, level: number): TreeNode {
    return this.context.nodes.node(this.shape, sha256, level)
  }
}

/** Makes nodes: encodes, names and caches them, and records them as created. */
class NodeWriter {
  /** The children of the internal nodes made here, so finishing never depends on the cache keeping them. */
  private readonly made = new Map<string, ChildRef[]>()

  constructor(
    private readonly shape: TreeShape,
    private readonly context: TreeContext,
    private readonly created: NewNode[],
    /** Whether leaves are cached decoded beside their text (Tree.build). */
    private readonly leavesDecoded = true,
  ) {}

  node(level: number, items: readonly Item[]): ChildRef {
    if (level === 0) {
      const entries = items as TreeEntry[]
      const text = this.shape.codec.encode(entries)
      const weight = this.shape.codec.weigh?.(entries, text) ?? utf8Length(text)
      const sha256 = this.store(text, 0, this.leavesDecoded ? { level: 0, entries } : undefined)
      return { key: entries[entries.length - 1]?.key ?? '', sha256, count: entries.length, weight }
    }
    const children = items as ChildRef[]
    let count = 0
    let weight = 0
    for (const child of children) (count += child.count), (weight += child.weight)
    const sha256 = this.store(encodeInternal(level, children), level, { level, children })
    this.made.set(sha256, children)
    return { key: children[children.length - 1]!.key, sha256, count, weight }
  }

  /** Cuts sorted items into nodes of one level at their boundaries. */
  cut(level: number, items: Iterable<Item>): ChildRef[] {
    const nodes: ChildRef[] = []
    let run: Item[] = []
    for (const item of items) {
      run.push(item)
      if (endsNode(this.shape, level, item, run.length)) {
        nodes.push(this.node(level, run))
        run = []
      }
    }
    if (run.length > 0) nodes.push(this.node(level, run))
    return nodes
  }

  /**
   * The tree whose level `level` is exactly `nodes`: levels are added until one node is left,
   * and a root with a single child gives way to it, as a build from scratch would have it.
   */
  finish(nodes: ChildRef[], level: number): Tree {
    if (nodes.length === 0) return this.tree(this.node(0, []), 0)
    while (nodes.length > 1) nodes = this.cut(++level, nodes)
    let root = nodes[0]!
    while (level > 0) {
      const children = this.made.get(root.sha256) ?? (this.context.nodes.node(this.shape, root.sha256, level) as { children: ChildRef[] }).children
      if (children.length > 1) break
      root = children[0]!
      level--
    }
    return this.tree(root, level)
  }

  private tree(ref: ChildRef, level: number): Tree {
    return new Tree(this.shape, { sha256: ref.sha256, level, count: ref.count, weight: ref.weight }, this.context)
  }

  /** Names, caches and records a node, with its decoded `node` beside when given. */
  private store(text: string, level: number, node: TreeNode | undefined): string {
    const sha256 = this.context.hash(text)
    this.context.nodes.addMade(sha256, text, node && { node, codec: level === 0 ? this.shape.codec : undefined })
    this.created.push({ space: this.shape.space, sha256, text, level })
    return sha256
  }
}

/** The edits for the level above: drop the replaced nodes, add the new ones, and skip what did not change. */
function parentEdits(removed: readonly Visited['ref'][], added: readonly ChildRef[]): LevelEdit[] {
  const edits = new Map<string, LevelEdit>()
  const before = new Map(removed.map((ref) => [ref.key, ref.sha256]))
  for (const ref of removed) edits.set(ref.key, [ref.key, undefined])
  for (const ref of added) {
    if (before.get(ref.key) === ref.sha256) edits.delete(ref.key)
    else edits.set(ref.key, [ref.key, ref])
  }
  return [...edits.values()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
}

/** The node's items with `edits[from..to)` applied (both sorted by key). */
function* mergeSorted(items: readonly Item[], edits: readonly LevelEdit[], from: number, to: number): Generator<Item> {
  let i = 0
  for (let e = from; e < to; e++) {
    const [key, item] = edits[e]!
    while (i < items.length && items[i]!.key < key) yield items[i++]!
    if (i < items.length && items[i]!.key === key) i++
    if (item) yield item
  }
  while (i < items.length) yield items[i++]!
}

function lowerBound(items: readonly Item[], key: string): number {
  let low = 0
  let high = items.length
  while (low < high) {
    const mid = (low + high) >>> 1
    if (items[mid]!.key < key) low = mid + 1
    else high = mid
  }
  return low
}

const throwMissing = (node: { space: string; sha256: string }): never => {
  throw new MissingNodes([node])
}
