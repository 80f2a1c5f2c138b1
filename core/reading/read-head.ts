import type { ObjectStore } from '../ports/object-store.ts'
import type { ClusterKeys } from '../keys/cluster-keys.ts'
import { CorruptObject } from './errors.ts'
import { parseHead, type Head } from './head.ts'

/** HEAD and the entity tag a compare-and-swap must name; undefined for a cluster that has none yet. */
export async function readHead(store: ObjectStore, keys: ClusterKeys): Promise<{ head: Head; etag: string } | undefined> {
  const stored = await store.get(keys.head)
  if (!stored) return undefined
  try {
    return { head: parseHead(new TextDecoder().decode(stored.body), keys.head), etag: stored.etag }
  } catch (error) {
    throw new CorruptObject(keys.head, (error as Error).message)
  }
}
