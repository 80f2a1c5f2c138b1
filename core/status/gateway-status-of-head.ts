import { clusterKeys } from '../keys/cluster-keys.ts'
import type { GatewayApiStatus } from '../kube/gateway-status.ts'
import { readGenerationRecord } from '../reading/generation-records.ts'
import type { Head } from '../reading/head.ts'
import { NodeLoader } from '../reading/node-loader.ts'
import { openTrees } from '../reading/open-trees.ts'
import { runLoading } from '../reading/run-loading.ts'
import { indexedUnder } from '../incremental/cluster-wide.ts'
import { ClusterState } from '../model/cluster-state.ts'
import { Keyspace } from '../snapshot/keyspace.ts'
import { gatewayApiStatus } from './gateway-api-status.ts'
import type { StatusSources } from './status-of-head.ts'

/**
 * The Gateway API status of the generation HEAD names, its conditions' transition time the
 * commit's (`now` when the record was never written): reads the GatewayClasses, Gateways and
 * HTTPRoutes of the snapshot and what their verdicts read. Null when the snapshot predates the
 * layout that records its options (the next write upgrades it).
 */
export async function gatewayStatusOfHead(sources: StatusSources, head: Head, now: Date): Promise<GatewayApiStatus | null> {
  const keys = clusterKeys(sources.cluster)
  const loader = new NodeLoader(sources.store, keys, sources.context)
  const trees = await openTrees(head, loader, sources.context, keys)
  const record = await readGenerationRecord(sources.store, keys, head.generation)
  const at = record?.committedAt ?? now.toISOString()
  // Read under the options the snapshot was derived under, as the commit that made it read them.
  return runLoading(() => {
    const options = indexedUnder(trees.snapshot)
    return options ? gatewayApiStatus(new ClusterState(options, new Keyspace(trees.snapshot)), at) : null
  }, loader)
}
