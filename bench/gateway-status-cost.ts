import type { LiveCluster } from '../core/incremental/live-cluster.ts'
import { clusterKeys } from '../core/keys/cluster-keys.ts'
import { ClusterState } from '../core/model/cluster-state.ts'
import { NodeLoader } from '../core/reading/node-loader.ts'
import { Keyspace } from '../core/snapshot/keyspace.ts'
import { gatewayApiStatus } from '../core/gateway-status/gateway-api-status.ts'
import { gatewayStatusChanges } from '../core/status/gateway-status-of-head.ts'
import { storedGatewayStatus } from '../core/gateway-status/stored-gateway-status.ts'
import type { TreeRoot } from '../core/tree/node.ts'
import type { NodeCache } from '../core/tree/node-cache.ts'
import { Tree, type TreeContext } from '../core/tree/tree.ts'
import { createMemoryStore } from '../functions/adapters/storage/memory-store.ts'

/** What a Gateway API status costs: CPU time (user + system), the snapshot nodes it reads, the objects it gives. */
export interface StatusCost {
  cpuMs: number
  nodes: number
  objects: number
}

/**
 * What the function's status writer reads after a change (the mirror, after each commit): the
 * statuses that changed since the snapshot it last wrote (`before`), over a view of the snapshot
 * that counts the distinct nodes read. CPU time, not wall time: the machine's cores are shared.
 */
export async function gatewayStatusChangeCost(cluster: LiveCluster, before: TreeRoot, at: string): Promise<StatusCost> {
  const { snapshot, read } = countedSnapshot(cluster)
  // Every node is in memory: the loader is asked for none.
  const loader = new NodeLoader(createMemoryStore(), clusterKeys('bench'), snapshot.context)
  const started = process.cpuUsage()
  const { objects, removed } = await gatewayStatusChanges(before, snapshot, loader, at)
  return { cpuMs: cpuMsSince(started), nodes: read.size, objects: objects.length + removed.length }
}

/** The whole status: as `GET …/gateway-status` reads it from the snapshot (`stored`), or computed over every object as before it was kept. */
export function wholeGatewayStatusCost(cluster: LiveCluster, at: string, how: 'stored' | 'computed'): StatusCost {
  const { snapshot, read } = countedSnapshot(cluster)
  const started = process.cpuUsage()
  const state = new ClusterState(cluster.options, new Keyspace(snapshot))
  const status = how === 'stored' ? storedGatewayStatus(snapshot, state, at) : gatewayApiStatus(state, at)
  return { cpuMs: cpuMsSince(started), nodes: read.size, objects: status.objects.length }
}

function cpuMsSince(started: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(started)
  return (used.user + used.system) / 1000
}

/** The cluster's current snapshot, read through a view of its nodes that remembers which it was asked for. */
function countedSnapshot(cluster: LiveCluster): { snapshot: Tree; read: Set<string> } {
  const { context, read } = countingContext(cluster.context)
  const { shape, root } = cluster.current.snapshot
  return { snapshot: new Tree(shape, root, context), read }
}

function countingContext(context: TreeContext): { context: TreeContext; read: Set<string> } {
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
