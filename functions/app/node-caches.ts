import type { HashText } from '../../core/hash.ts'
import { NodeCache } from '../../core/tree/node-cache.ts'
import type { TreeContext } from '../../core/tree/tree.ts'

/**
 * One node cache per cluster, for the clusters this process served last: nodes are immutable,
 * so a warm cache is always valid; a cluster's cache never serves another cluster's nodes.
 */
export class NodeCaches {
  private readonly caches = new Map<string, TreeContext>()

  constructor(
    private readonly hash: HashText,
    /** Characters of node text kept per cluster. */
    private readonly budgetPerCluster: number,
    private readonly clusters: number,
  ) {}

  for(cluster: string): TreeContext {
    let context = this.caches.get(cluster)
    if (context) this.caches.delete(cluster)
    else context = { nodes: new NodeCache(this.budgetPerCluster), hash: this.hash }
    this.caches.set(cluster, context)
    for (const oldest of this.caches.keys()) {
      if (this.caches.size <= this.clusters) break
      this.caches.delete(oldest)
    }
    return context
  }
}
