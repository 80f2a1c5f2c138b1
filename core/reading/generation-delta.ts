import { MANIFEST_SHAPE, parseManifest, type Manifest } from '../generation/manifest.ts'
import { utf8Length } from '../tree/tree-shape.ts'
import type { TreeContext } from '../tree/tree.ts'
import { childrenOf, pointsOn, rootNode, spaceOf, type GenerationNode } from './generation-nodes.ts'
import type { NodeLoader } from './node-loader.ts'

/**
 * The stored texts of generation `want` that a reader holding generation `have` lacks: its
 * manifest record, then the nodes of its trees that `have` does not share. The two generations
 * are walked side by side from the top, level by level, and a subtree whose address both hold
 * is skipped on both sides; prolly trees cut their nodes on keys alone, so unchanged key ranges
 * line up and the walk costs the nodes on the paths to what changed, not the generation.
 *
 * The answer is a hint: it stops at `budgetBytes`, and a reader still verifies every text
 * against the address its verified parent gives, fetching whatever the hint left out. A `have`
 * whose text is not a manifest record (a tree node, a file) is taken as holding nothing.
 */
export async function generationDelta(
  want: string,
  have: string | undefined,
  loader: NodeLoader,
  context: TreeContext,
  budgetBytes: number,
): Promise<Map<string, string>> {
  const delta = new Map<string, string>()
  if (want === have) return delta
  let bytes = 0
  const add = (sha256: string, text: string) => {
    if (bytes + utf8Length(text) > budgetBytes) return false
    bytes += utf8Length(text)
    delta.set(sha256, text)
    return true
  }
  const record = await loader.text(MANIFEST_SHAPE.space, want)
  if (!add(want, record)) return delta
  let wants = [rootNode(MANIFEST_SHAPE, parseManifest(record).tree)]
  const heldManifest = have === undefined ? undefined : manifestIn(await loader.text(MANIFEST_SHAPE.space, have))
  let haves = heldManifest ? [rootNode(MANIFEST_SHAPE, heldManifest.tree)] : []

  while (wants.length > 0) {
    const held = new Set(haves.map((node) => node.sha256))
    const wanted = new Set(wants.map((node) => node.sha256))
    wants = wants.filter((node) => !held.has(node.sha256) && !delta.has(node.sha256))
    // A subtree both sides hold is skipped on the held side too: opened, it would only name nodes the wanted side skips.
    haves = haves.filter((node) => !wanted.has(node.sha256))
    if (wants.length === 0) break
    const top = Math.max(...wants.map(rank), ...haves.map(rank))
    const wantNow = wants.filter((node) => rank(node) === top)
    const haveNow = haves.filter((node) => rank(node) === top && pointsOn(node))
    await loader.load([...wantNow, ...haveNow].filter((node) => !context.nodes.has(node.sha256)).map((node) => ({ space: spaceOf(node), sha256: node.sha256 })))
    wants = wants.filter((node) => rank(node) !== top)
    haves = haves.filter((node) => rank(node) !== top)
    for (const node of wantNow) {
      if (!add(node.sha256, context.nodes.loadedText(spaceOf(node), node.sha256))) return delta
      wants.push(...childrenOf(node, context))
    }
    for (const node of haveNow) haves.push(...childrenOf(node, context))
  }
  return delta
}

/** The manifest a stored text records, or undefined when it records none. */
function manifestIn(text: string): Manifest | undefined {
  try {
    return parseManifest(text)
  } catch {
    return undefined
  }
}

/** Walk order: the manifest's levels above every file's, and within a tree, higher levels first, so the two sides meet at the same height. */
function rank(node: GenerationNode): number {
  return node.shape === MANIFEST_SHAPE ? 1_000_000 + node.level : node.level
}
