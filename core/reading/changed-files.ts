import { fileShape } from '../generation/file-shapes.ts'
import { readFile } from '../generation/generation.ts'
import type { MapLines } from '../plan/map-updates.ts'
import { isMapFile } from '../plan/plan-from-files.ts'
import { MANIFEST_SHAPE, parseManifest } from '../generation/manifest.ts'
import type { TreeRoot } from '../tree/node.ts'
import type { TreeContext } from '../tree/tree.ts'
import type { NodeLoader } from './node-loader.ts'
import { runLoading } from './run-loading.ts'
import { diffTrees } from './tree-diff.ts'

/** A file that differs between two generations: its root before (none: added) and after (none: removed). */
export interface FileChange {
  path: string
  before?: TreeRoot
  after?: TreeRoot
}

/** The files that differ between two generations' manifests, found by comparing their manifest trees. */
export async function changedFiles(before: string | undefined, after: string, loader: NodeLoader, context: TreeContext): Promise<FileChange[]> {
  const root = async (manifest: string): Promise<TreeRoot> => {
    const { tree, files, size } = parseManifest(await loader.text(MANIFEST_SHAPE.space, manifest))
    return { ...tree, count: files, weight: size }
  }
  const changes = await diffTrees(MANIFEST_SHAPE, before === undefined ? undefined : await root(before), await root(after), loader, context)
  const parse = (value: string | undefined) => (value === undefined ? undefined : (JSON.parse(value) as TreeRoot))
  return changes.map(({ key, before, after }) => {
    const was = parse(before)
    const is = parse(after)
    return { path: key, ...(was ? { before: was } : {}), ...(is ? { after: is } : {}) }
  })
}

/** The text of each changed file on both sides (read in parallel, chunks verified as they load). */
export async function changedTexts(
  changes: readonly FileChange[],
  loader: NodeLoader,
  context: TreeContext,
): Promise<{ before: Map<string, string>; after: Map<string, string> }> {
  const before = new Map<string, string>()
  const after = new Map<string, string>()
  const read = async (into: Map<string, string>, path: string, root: TreeRoot | undefined) => {
    if (root) into.set(path, await runLoading(() => readFile(root, context), loader))
  }
  await Promise.all(changes.flatMap((change) => [read(before, change.path, change.before), read(after, change.path, change.after)]))
  return { before, after }
}

/**
 * For each map cut into chunks that changed (not added, not removed), the lines that differ,
 * found from its two chunk trees: the nodes on the paths to what changed are read and compared,
 * not the two files, so a one-line change to a map of megabytes costs a few chunks.
 */
export async function changedMapLines(changes: readonly FileChange[], loader: NodeLoader, context: TreeContext): Promise<Map<string, MapLines>> {
  const maps = new Map<string, MapLines>()
  for (const { path, before, after } of changes) {
    const shape = fileShape(path)
    if (!before || !after || !shape || !isMapFile(path)) continue
    maps.set(path, { changes: await diffTrees(shape, before, after, loader, context), lines: after.count })
  }
  return maps
}
