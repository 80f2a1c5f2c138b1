import type { ObjectStore } from '../ports/object-store.ts'
import { isClusterId } from '../keys/cluster-keys.ts'

/** Every cluster with a committed generation: the ids of `clusters/<id>/HEAD` (a scan of the store). */
export async function listClusters(store: ObjectStore): Promise<string[]> {
  const clusters: string[] = []
  for await (const object of store.list('clusters/')) {
    const [, id, name, ...rest] = object.key.split('/')
    if (name === 'HEAD' && rest.length === 0 && id && isClusterId(id)) clusters.push(id)
  }
  return clusters
}
