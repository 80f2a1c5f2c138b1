import { clusterKeys } from '../keys/cluster-keys.ts'
import type { GatewayApiStatus, GatewayStatusChange } from '../kube/gateway-status.ts'
import { readGenerationRecord } from '../reading/generation-records.ts'
import type { Head } from '../reading/head.ts'
import { NodeLoader } from '../reading/node-loader.ts'
import { openTrees } from '../reading/open-trees.ts'
import { runLoading } from '../reading/run-loading.ts'
import { diffTrees } from '../reading/tree-diff.ts'
import { indexedUnder } from '../incremental/cluster-wide.ts'
import { ClusterState } from '../model/cluster-state.ts'
import { gatewayController } from '../model/gateway-controller.ts'
import { Keyspace, SNAPSHOT_SHAPE } from '../snapshot/keyspace.ts'
import type { TreeRoot } from '../tree/node.ts'
import type { Tree } from '../tree/tree.ts'
import type { GatewayObjectStatus } from '../kube/gateway-status.ts'
import { stamped, STORED_STATUS_RANGE, statusObjectKey, storedGatewayStatus } from '../gateway-status/stored-gateway-status.ts'
import type { StatusSources } from './status-of-head.ts'

/**
 * The Gateway API status of the generation HEAD names, its conditions' transition time the
 * commit's (`now` when the record was never written): the statuses its commits kept
 * (reconcile-gateway-status.ts), read whole. Null when the snapshot predates the layout that
 * keeps them (the next write upgrades it).
 */
export async function gatewayStatusOfHead(sources: StatusSources, head: Head, now: Date): Promise<GatewayApiStatus | null> {
  const { loader, trees, at } = await openHead(sources, head, now)
  return runLoading(() => {
    const options = indexedUnder(trees.snapshot)
    return options ? storedGatewayStatus(trees.snapshot, new ClusterState(options, new Keyspace(trees.snapshot)), at) : null
  }, loader)
}

/**
 * What changed in the Gateway API status from the snapshot `since` (one whose status was written)
 * to HEAD's: the statuses set, stamped as gatewayStatusOfHead stamps them, and the objects whose
 * status went. It reads the nodes on the paths to what changed, not the cluster. Null as
 * gatewayStatusOfHead.
 */
export async function gatewayStatusChangeOfHead(sources: StatusSources, head: Head, now: Date, since: TreeRoot): Promise<GatewayStatusChange | null> {
  const { loader, trees, at } = await openHead(sources, head, now)
  const controllerName = await runLoading(() => {
    const options = indexedUnder(trees.snapshot)
    return options ? gatewayController(new ClusterState(options, new Keyspace(trees.snapshot)).configMap()) : null
  }, loader)
  if (controllerName === null) return null
  return { controllerName, ...(await gatewayStatusChanges(since, trees.snapshot, loader, at)) }
}

/** The stored statuses that differ between the snapshot `since` and `snapshot`: those set, stamped with `at`, and the objects whose status went. */
export async function gatewayStatusChanges(
  since: TreeRoot,
  snapshot: Tree,
  loader: NodeLoader,
  at: string,
): Promise<{ objects: GatewayObjectStatus[]; removed: string[] }> {
  const changes = await diffTrees(SNAPSHOT_SHAPE, since, snapshot.root, loader, snapshot.context, ...STORED_STATUS_RANGE)
  const objects: GatewayObjectStatus[] = []
  const removed: string[] = []
  for (const change of changes)
    if (change.after === undefined) removed.push(statusObjectKey(change.key))
    else objects.push(stamped(JSON.parse(change.after) as GatewayObjectStatus, at))
  return { objects, removed }
}

async function openHead(sources: StatusSources, head: Head, now: Date) {
  const keys = clusterKeys(sources.cluster)
  const loader = new NodeLoader(sources.store, keys, sources.context)
  const trees = await openTrees(head, loader, sources.context, keys)
  const record = await readGenerationRecord(sources.store, keys, head.generation)
  return { loader, trees, at: record?.committedAt ?? now.toISOString() }
}
