import { manifestTree } from '../generation/generation.ts'
import { parseManifest } from '../generation/manifest.ts'
import type { ClusterTrees } from '../incremental/incremental-cluster.ts'
import { SNAPSHOT_SHAPE } from '../snapshot/keyspace.ts'
import { Tree, type TreeContext } from '../tree/tree.ts'
import type { ClusterKeys } from '../keys/cluster-keys.ts'
import { CorruptObject } from './errors.ts'
import type { CommittedState } from './head.ts'
import type { NodeLoader } from './node-loader.ts'

/** The snapshot and manifest trees of a committed state (the manifest record is loaded and checked). */
export async function openTrees(head: CommittedState, loader: NodeLoader, context: TreeContext, keys: ClusterKeys): Promise<ClusterTrees> {
  const text = await loader.text('blobs', head.manifest)
  let manifest: ReturnType<typeof parseManifest>
  try {
    manifest = parseManifest(text)
  } catch (error) {
    throw new CorruptObject(keys.node('blobs', head.manifest), (error as Error).message)
  }
  return { snapshot: new Tree(SNAPSHOT_SHAPE, head.snapshot, context), manifest: manifestTree(manifest, context) }
}
