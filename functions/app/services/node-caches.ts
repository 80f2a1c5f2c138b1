import type { HashText } from '../../../core/hash.ts'
import type { Gzip } from '../../../core/tree/node-body.ts'
import { NodeCache } from '../../../core/tree/node-cache.ts'
import type { TreeContext } from '../../../core/tree/tree.ts'

/** How much node text a process keeps: per cluster, for how many clusters, and in all. */
export interface CacheBudget {
  /** Characters of node text kept per cluster. */
  perCluster: number
  clusters: number
  /** Characters kept over every cluster (default perCluster × clusters): many small clusters fit where a few large ones would. */
  total?: number
  /** Characters a commit may hold of the nodes it reads, beside its cluster's perCluster (see NodeCache.hold; default half of perCluster). */
  hold?: number
}

/**
 * One node cache per cluster, for the clusters this process served last: nodes are immutable,
 * so a warm cache is always valid; a cluster's cache never serves another cluster's nodes.
 * The least recently used clusters' caches go first when there are too many or they hold too much
 * (checked as a cache is handed out, so a change fills its cache first and is counted at the next).
 */
export class NodeCaches {
  private readonly caches = new Map<string, TreeContext>()
  private readonly total: number

  constructor(
    private readonly hash: HashText,
    private readonly budget: CacheBudget,
    private readonly gzip?: Gzip,
  ) {
    this.total = budget.total ?? budget.perCluster * budget.clusters
  }

  /** The cluster's cache, made warm-most: for the work that fills it (writes, reads for agents). */
  for(cluster: string): TreeContext {
    let context = this.caches.get(cluster)
    if (context) this.caches.delete(cluster)
    else context = { nodes: new NodeCache(this.budget.perCluster, this.budget.hold), hash: this.hash, ...(this.gzip ? { gzip: this.gzip } : {}) }
    this.caches.set(cluster, context)
    this.evict()
    return context
  }

  /** The cluster's cache if it is kept, without making it warm-most: a reader that must not push out the writers' caches. */
  peek(cluster: string): TreeContext | undefined {
    return this.caches.get(cluster)
  }

  private evict(): void {
    let bytes = 0
    for (const context of this.caches.values()) bytes += context.nodes.bytes
    for (const [oldest, context] of this.caches) {
      if (this.caches.size <= this.budget.clusters && bytes <= this.total) break
      if (this.caches.size === 1) break
      this.caches.delete(oldest)
      bytes -= context.nodes.bytes
    }
  }
}
