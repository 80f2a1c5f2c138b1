import { manifestTree, readFiles } from '../generation/generation.ts'
import { parseManifest } from '../generation/manifest.ts'
import type { ObjectStore } from '../ports/object-store.ts'
import type { TreeContext } from '../tree/tree.ts'
import { clusterKeys } from '../keys/cluster-keys.ts'
import { NodeLoader } from './node-loader.ts'
import { walkGeneration } from './walk-generation.ts'

/**
 * A generation's files, read and verified: the manifest record, every manifest node, every
 * chunk list and every chunk must hash to the name its parent gives it, or the read fails
 * with the key that did not (CorruptObject), and nothing of the generation is returned.
 */
export async function readGeneration(store: ObjectStore, cluster: string, manifest: string, context: TreeContext): Promise<Map<string, string>> {
  const loader = new NodeLoader(store, clusterKeys(cluster), context)
  await walkGeneration({ manifest }, loader, context, { leaves: true })
  return readFiles(manifestTree(parseManifest(await loader.text('blobs', manifest)), context), context)
}
