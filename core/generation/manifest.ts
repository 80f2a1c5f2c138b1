import type { TreeRoot } from '../tree/node.ts'
import { BRANCH_TARGET, jsonLines, type TreeShape } from '../tree/tree-shape.ts'
import type { Tree } from '../tree/tree.ts'

/**
 * The manifest tree: path → the file's root (a JSON TreeRoot). A small file's root is its
 * content blob (level 0); a large file's root is the top of its chunk tree, whose leaves are
 * its chunks in order. The tree weighs file bytes, so its root knows the generation's size.
 */
export const MANIFEST_SHAPE: TreeShape = {
  space: 'blobs',
  leafTarget: 32,
  branchTarget: BRANCH_TARGET,
  branchSpread: 'narrow',
  codec: {
    ...jsonLines,
    weigh: (entries) => entries.reduce((sum, entry) => sum + (JSON.parse(entry.value) as TreeRoot).weight, 0),
  },
}

/** A generation's root record; the sha256 of its text names the generation's content. */
export interface Manifest {
  version: 2
  files: number
  size: number
  tree: { sha256: string; level: number }
}

export function manifestOf(tree: Tree): Manifest {
  const { sha256, level, count, weight } = tree.root
  return { version: 2, files: count, size: weight, tree: { sha256, level } }
}

export function serializeManifest(manifest: Manifest): string {
  return `${JSON.stringify(manifest)}\n`
}

export function parseManifest(text: string): Manifest {
  const manifest = JSON.parse(text) as Manifest
  if (manifest.version !== 2 || typeof manifest.tree?.sha256 !== 'string' || !Number.isInteger(manifest.tree.level)) {
    throw new Error('not a hapedge manifest (version 2)')
  }
  return manifest
}
