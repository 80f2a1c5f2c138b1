import type { LiveCluster } from '../core/incremental/live-cluster.ts'
import { ClusterState } from '../core/model/cluster-state.ts'
import { Keyspace } from '../core/snapshot/keyspace.ts'
import { gatewayApiStatus } from '../core/status/gateway-api-status.ts'
import type { NodeCache } from '../core/tree/node-cache.ts'
import { Tree, type TreeContext } from '../core/tree/tree.ts'

/** What the Gateway API status costs after one change: CPU time (user + system) and the snapshot nodes it reads. */
export interface StatusCost {
  cpuMs: number
  nodes: number
  objects: number
}

/**
 * The Gateway API status of the cluster's current snapshot as the function computes it after
 * each commit and each agent report (gatewayStatusOfHead), over a view of the snapshot that
 * counts the distinct nodes read. CPU time, not wall time: the machine's cores are shared.
 */
export function gatewayStatusCost(cluster: LiveCluster, at: string): StatusCost {
  const { context, read } = countingContext(cluster.context)
  const snapshot = cluster.current.snapshot
  const started = process.cpuUsage()
  const status = gatewayApiStatus(new ClusterState(cluster.options, new Keyspace(new Tree(snapshot.shape, snapshot.root, context))), at)
  const used = process.cpuUsage(started)
  return { cpuMs: (used.user + used.system) / 1000, nodes: read.size, objects: status.objects.length }
}

/** The context's nodes, read through a view that remembers which it was asked for. */
export function countingContext(context: TreeContext): { context: TreeContext; read: Set<string> } {
  const read = new Set<string>()
  const nodes: NodeCache = Object.create(context.nodes)
  nodes.node = (shape, sha256, level) => {
    read.add(sha256)
    return context.nodes.node(shape, sha256, level)
  }
  nodes.text = (sha256) => {
    read.add(sha256)
    return context.nodes.text(sha256)
  }
  return { context: { ...context, nodes }, read }
}
