import type { ObjectStore } from '../ports/object-store.ts'
import type { TreeContext } from '../tree/tree.ts'
import type { ClusterKeys } from '../keys/cluster-keys.ts'
import { nodeText } from '../tree/node-body.ts'
import { CorruptObject } from './errors.ts'

/** Counts what a change read from storage: the benchmark's "nodes read". */
export interface LoadStats {
  nodes: number
  bytes: number
  /** Characters of node text loaded: what the loads add to the cache. */
  chars: number
  rounds: number
}

/**
 * Loads tree nodes from a cluster's storage into the cache, checking each against its name:
 * a node that is missing, or whose text (stored plain or gzipped) does not hash to its sha256,
 * is refused with its key.
 */
export class NodeLoader {
  readonly stats: LoadStats = { nodes: 0, bytes: 0, chars: 0, rounds: 0 }

  constructor(
    private readonly store: ObjectStore,
    private readonly keys: ClusterKeys,
    private readonly context: TreeContext,
  ) {}

  async load(nodes: readonly { space: string; sha256: string }[]): Promise<void> {
    this.stats.rounds++
    await Promise.all(nodes.map((node) => this.loadOne(node.space, node.sha256)))
  }

  /**
   * Runs `work`, which loads and reads nodes, keeping what it reads until it ends (NodeCache.hold,
   * with no bound: what one read needs), unless a hold is in force already (a commit's, which
   * then decides what is kept). Without it, a read needing more nodes than the cache holds
   * evicted what it had loaded while loading the next, and ran again without end.
   */
  async holding<T>(work: () => Promise<T>): Promise<T> {
    const { nodes } = this.context
    if (nodes.holdInForce) return work()
    const hold = nodes.hold(Number.POSITIVE_INFINITY)
    try {
      return await work()
    } finally {
      nodes.release(hold)
    }
  }

  /** What stops a computation that misses only nodes it loaded before: its cache evicted them, and would again. */
  lost(nodes: readonly { sha256: string }[]): Error {
    return new Error(`the node cache cannot hold one change's nodes (${nodes.map((node) => node.sha256).join(',')} evicted since loaded)`)
  }

  /** A stored text, verified (a manifest record, a blob). */
  async text(space: string, sha256: string): Promise<string> {
    const cached = this.context.nodes.text(sha256)
    if (cached !== undefined) return cached
    await this.loadOne(space, sha256)
    return this.context.nodes.loadedText(space, sha256)
  }

  private async loadOne(space: string, sha256: string): Promise<void> {
    if (this.context.nodes.has(sha256)) return
    const key = this.keys.node(space, sha256)
    const stored = await this.store.get(key)
    if (!stored) throw new CorruptObject(key, 'missing, though a committed generation names it')
    let text: string
    try {
      text = await nodeText(stored.body, this.context.gzip)
    } catch (error) {
      throw new CorruptObject(key, (error as Error).message)
    }
    if (this.context.hash(text) !== sha256) throw new CorruptObject(key, 'content does not match its sha256')
    this.stats.nodes++
    this.stats.bytes += stored.body.byteLength
    this.stats.chars += text.length
    this.context.nodes.add(sha256, text)
  }
}
