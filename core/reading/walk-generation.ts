import { MANIFEST_SHAPE, parseManifest } from '../generation/manifest.ts'
import { SNAPSHOT_SHAPE } from '../snapshot/keyspace.ts'
import type { TreeContext } from '../tree/tree.ts'
import { childrenOf, pointsOn, rootNode, spaceOf, type GenerationNode } from './generation-nodes.ts'
import type { Head } from './head.ts'
import type { NodeLoader } from './node-loader.ts'

export interface WalkOptions {
  /** Load file chunks and snapshot leaves too (to read or verify a generation), not only the nodes that point to others. */
  leaves: boolean
  /** Addresses already visited: a subtree seen once is not walked again (nodes are content-addressed). */
  seen?: Set<string>
}

/**
 * Every node a generation references, visited level by level so that each level's nodes load
 * in parallel: the manifest record, the manifest tree, each file's chunk tree, and (from a
 * HEAD) the snapshot tree. Returns the addresses reached, by space.
 */
export async function walkGeneration(
  start: { manifest: string; snapshot?: Head['snapshot'] },
  loader: NodeLoader,
  context: TreeContext,
  options: WalkOptions,
): Promise<Set<string>> {
  const seen = options.seen ?? new Set<string>()
  const reached = new Set<string>()
  const reach = (space: string, sha256: string) => {
    reached.add(`${space}/${sha256}`)
    if (seen.has(`${space}/${sha256}`)) return false
    seen.add(`${space}/${sha256}`)
    return true
  }
  const manifest = parseManifest(await loader.text('blobs', start.manifest))
  reach('blobs', start.manifest)
  let frontier: GenerationNode[] = []
  const push = (node: GenerationNode) => {
    if (reach(spaceOf(node), node.sha256)) frontier.push(node)
  }
  push(rootNode(MANIFEST_SHAPE, manifest.tree))
  if (start.snapshot) push(rootNode(SNAPSHOT_SHAPE, start.snapshot))

  while (frontier.length > 0) {
    const mustLoad = frontier.filter((node) => pointsOn(node) || options.leaves)
    await loader.load(mustLoad.filter((node) => !context.nodes.has(node.sha256)).map((node) => ({ space: spaceOf(node), sha256: node.sha256 })))
    frontier = []
    for (const node of mustLoad) for (const child of childrenOf(node, context)) push(child)
  }
  return reached
}
