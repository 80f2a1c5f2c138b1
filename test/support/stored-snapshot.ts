import type { ClusterKeys } from '../../core/keys/cluster-keys.ts'
import type { ObjectStore } from '../../core/ports/object-store.ts'
import { NodeLoader } from '../../core/reading/node-loader.ts'
import { readHead } from '../../core/reading/read-head.ts'
import { runLoading } from '../../core/reading/run-loading.ts'
import { SNAPSHOT_SHAPE } from '../../core/snapshot/keyspace.ts'
import { Tree } from '../../core/tree/tree.ts'
import { coldContext } from './contracts/cluster-apps.ts'

/** Every snapshot entry the cluster's HEAD names, read by a cold reader: what tests of stored layouts compare. */
export async function storedSnapshotEntries(store: ObjectStore, keys: ClusterKeys) {
  const context = coldContext()
  const tree = new Tree(SNAPSHOT_SHAPE, (await readHead(store, keys))!.head.snapshot, context)
  return runLoading(() => tree.entries(), new NodeLoader(store, keys, context))
}
