import { readFiles } from '../generation/generation.ts'
import { sha256Text, type HashText } from '../hash.ts'
import type { ClusterOptions } from '../model/settings.ts'
import { NodeCache } from '../tree/node-cache.ts'
import type { TreeContext } from '../tree/tree.ts'
import { IncrementalCluster, type Applied, type ClusterTrees } from './incremental-cluster.ts'
import type { WatchEvent } from './watch-event.ts'

/**
 * A cluster kept in one process, change after change, with every node in memory: the
 * incremental path without storage, for tests and the benchmark. Each change runs exactly as
 * a stateless function runs it; only loading and committing are left out.
 */
export class LiveCluster {
  readonly context: TreeContext
  private trees: ClusterTrees

  constructor(
    /** The options each change runs under; set them to change the cluster's settings, as a PATCH of its record does. */
    public options: Partial<ClusterOptions> = {},
    hash: HashText = sha256Text,
  ) {
    this.context = { nodes: new NodeCache(), hash }
    const genesis = new IncrementalCluster(undefined, options, this.context).finish()
    this.trees = { snapshot: genesis.snapshot, manifest: genesis.generation.manifest }
  }

  apply(events: Iterable<WatchEvent>): Applied {
    const applied = new IncrementalCluster(this.trees, this.options, this.context).apply(events).finish()
    this.trees = { snapshot: applied.snapshot, manifest: applied.generation.manifest }
    return applied
  }

  get current(): ClusterTrees {
    return this.trees
  }

  files(): Map<string, string> {
    return readFiles(this.trees.manifest, this.context)
  }
}
