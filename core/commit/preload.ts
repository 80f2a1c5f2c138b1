import { fileShape } from '../generation/file-shapes.ts'
import type { LikelyReads } from '../incremental/likely-reads.ts'
import { isLeaf, type TreeRoot } from '../tree/node.ts'
import { Tree } from '../tree/tree.ts'
import { loadRanges, type KeyRange } from '../reading/load-range.ts'
import type { NodeLoader } from '../reading/node-loader.ts'
import { runLoading } from '../reading/run-loading.ts'
import { TABLE, treeKey } from '../snapshot/tables.ts'
import { runSteps, type Pause } from '../slices.ts'

type Missing = Map<string, { space: string; sha256: string }>

/**
 * Loads the paths to many keys together: each round descends every key as far as the cache
 * allows (snapshot keys, and file entries once the manifest names their file's root) and loads
 * all the nodes that stopped them, so the round trips are the trees' depth, not the keys times
 * the depth. Then, for the objects it found new, what they name (LikelyReads.ifNew), as long as
 * what it loads for them stays within `budget` characters: loading what the cache cannot keep
 * beside the change's own nodes would evict them, and each one missed reruns the change.
 */
export function preload(snapshot: Tree, manifest: Tree, reads: LikelyReads, loader: NodeLoader, budget = 0, pause?: Pause): Promise<void> {
  // Held while it lasts (within a commit, the commit's hold decides): a descent that loaded a level evicted the levels above it, without end, in a cache smaller than the paths.
  return loader.holding(async () => {
    await loadPaths(snapshot, manifest, reads, loader, () => true, pause)
    const added = await runSteps(namedIfNew(snapshot, reads.ifNew), pause)
    if (added.length === 0) return
    const until = loader.stats.chars + budget
    const within = () => loader.stats.chars < until
    const named = await runSteps(merged(added), pause)
    await loadPaths(snapshot, manifest, named, loader, within, pause)
    if (!within()) return
    const followed = await memberObjectKeys(snapshot, named.memberObjects ?? [], loader)
    if (followed.length > 0 && within()) await loadPaths(snapshot, manifest, { snapshot: followed, files: new Map() }, loader, within, pause)
  })
}

/** Whether the snapshot holds nothing at `key`, its path loaded (a path evicted since counts as not absent). */
function isAbsent(snapshot: Tree, key: string): boolean {
  const missing: Missing = new Map()
  return descend(snapshot, key, missing) === undefined && missing.size === 0
}

/** What `ifNew` names for the keys the snapshot holds nothing at, as steps, one per key. */
function* namedIfNew(snapshot: Tree, ifNew: LikelyReads['ifNew']): Generator<void, LikelyReads[]> {
  const named: LikelyReads[] = []
  for (const [key, reads] of ifNew ?? []) {
    if (isAbsent(snapshot, key)) named.push(reads)
    yield
  }
  return named
}

/**
 * One set of reads holding all of `all`'s, as steps, one per set: a resync's commit of a thousand
 * new Ingresses merges a range of each of 44 host maps per host (60,000 ranges), which copying
 * each path's list for every set made quadratic (a fifth of a second of one slice).
 */
function* merged(all: readonly LikelyReads[]): Generator<void, LikelyReads> {
  const files = new Map<string, string[]>()
  const fileRanges = new Map<string, KeyRange[]>()
  const snapshot = new Set<string>()
  const memberObjects = new Set<string>()
  const snapshotRanges: KeyRange[] = []
  for (const reads of all) {
    for (const [path, keys] of reads.files) appendTo(files, path, keys)
    for (const [path, ranges] of reads.fileRanges ?? []) appendTo(fileRanges, path, ranges)
    for (const key of reads.snapshot) snapshot.add(key)
    for (const key of reads.memberObjects ?? []) memberObjects.add(key)
    for (const range of reads.snapshotRanges ?? []) snapshotRanges.push(range)
    yield
  }
  return { snapshot: [...snapshot], files, fileRanges, memberObjects: [...memberObjects], snapshotRanges }
}

function appendTo<T>(lists: Map<string, T[]>, key: string, values: readonly T[]): void {
  const list = lists.get(key)
  if (list) for (const value of values) list.push(value)
  else lists.set(key, [...values])
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

/**
 * Loads the paths to the keys, a level of every tree per round, while `more` allows another round.
 * Given `pause`, each round's descents run in slices (see runInSlices): a resync's commit descends
 * thousands of keys a round, which held the thread for a fifth of a second.
 */
async function loadPaths(snapshot: Tree, manifest: Tree, reads: LikelyReads, loader: NodeLoader, more = () => true, pause?: Pause): Promise<void> {
  const paths = new Set([...reads.files.keys(), ...(reads.fileRanges?.keys() ?? [])])
  const loaded = new Set<string>()
  while (more()) {
    const round = missingOnPaths(snapshot, manifest, reads, paths)
    const missing = [...(await runSteps(round, pause)).values()]
    if (missing.length === 0) return
    // A round that stops only at nodes loaded before would stop there again: a hold with no room left lost them.
    if (missing.every((node) => loaded.has(node.sha256))) throw loader.lost(missing)
    for (const node of missing) loaded.add(node.sha256)
    await loader.load(missing)
  }
}

/** One round of loadPaths: the nodes that stop each key's descent, as steps, one per key. */
function* missingOnPaths(snapshot: Tree, manifest: Tree, reads: LikelyReads, paths: ReadonlySet<string>): Generator<void, Missing> {
  const missing: Missing = new Map()
  for (const key of reads.snapshot) {
    descend(snapshot, key, missing)
    yield
  }
  for (const range of reads.snapshotRanges ?? []) {
    descendRange(snapshot, range, missing)
    yield
  }
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
    for (const key of reads.files.get(path) ?? []) {
      descend(file, key, missing)
      yield
    }
    for (const range of reads.fileRanges?.get(path) ?? []) {
      descendRange(file, range, missing)
      yield
    }
  }
  return missing
}

/**
 * The key's value if its path is loaded; otherwise notes the node that is missing. Handed, not
 * caught: a cold round descends thousands of keys that stop at a missing node, and building a
 * MissingNodes for each was 17% of the Worker's CPU through a 5,000-Ingress resync in workerd.
 */
function descend(tree: Tree, key: string, missing: Missing): string | undefined {
  return tree.find(key, (node) => missing.set(node.sha256, node))
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
