import type { WatchEvent } from '../../core/incremental/watch-event.ts'
import type { ClusterKeys } from '../../core/keys/cluster-keys.ts'
import type { ObjectStore } from '../../core/ports/object-store.ts'
import { NodeLoader } from '../../core/reading/node-loader.ts'
import { readHead } from '../../core/reading/read-head.ts'
import { runLoading } from '../../core/reading/run-loading.ts'
import { SNAPSHOT_SHAPE } from '../../core/snapshot/keyspace.ts'
import { Tree } from '../../core/tree/tree.ts'
import { added, app, coldContext, deleted, modified } from './contracts/cluster-apps.ts'

/** Every snapshot entry the cluster's HEAD names, read by a cold reader: what tests of stored layouts compare. */
export async function storedSnapshotEntries(store: ObjectStore, keys: ClusterKeys) {
  const context = coldContext()
  const tree = new Tree(SNAPSHOT_SHAPE, (await readHead(store, keys))!.head.snapshot, context)
  return runLoading(() => tree.entries(), new NodeLoader(store, keys, context))
}

/** The change tests of stored layouts write onto 200 apps (`objects`): one app gains a path, one goes, one comes; the objects after it. */
export function upgradeEdit(objects: readonly Record<string, unknown>[]): { final: Record<string, unknown>[]; events: WatchEvent[] } {
  const final = [...objects]
  final[3 * 17] = app(17, ['/', '/v2'])[0]!
  final.splice(3 * 150, 1)
  final.push(app(900)[0]!)
  return { final, events: [modified(final[3 * 17]), deleted(objects[3 * 150]), added(app(900)[0])] }
}
