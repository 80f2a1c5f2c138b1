import { decodeInternal, MissingNodes, type TreeNode } from './node.ts'
import type { TreeShape } from './tree-shape.ts'

interface Cached {
  text: string
  decoded?: TreeNode
  /** Equal texts can be leaves of trees with different codecs (an empty leaf is everywhere). */
  codec?: TreeShape['codec']
}

/**
 * Tree nodes by address, as text with their decoded form beside. Nodes are immutable, so an
 * entry never goes stale; the cache only forgets the least recently used beyond its budget
 * (in characters of node text), which bounds a warm process's memory.
 */
export class NodeCache {
  private readonly nodes = new Map<string, Cached>()
  private size = 0

  constructor(readonly budget = Number.POSITIVE_INFINITY) {}

  has(sha256: string): boolean {
    return this.nodes.has(sha256)
  }

  /** Adds a node's text; a writer that just made the node passes its decoded form too, so it is never parsed back. */
  add(sha256: string, text: string, decoded?: { node: TreeNode; codec: TreeShape['codec'] | undefined }): void {
    if (this.nodes.has(sha256)) return
    this.nodes.set(sha256, decoded ? { text, decoded: decoded.node, codec: decoded.codec } : { text })
    this.size += text.length
    for (const [oldest, cached] of this.nodes) {
      if (this.size <= this.budget) break
      this.nodes.delete(oldest)
      this.size -= cached.text.length
    }
  }

  /** The node's text, if cached. */
  text(sha256: string): string | undefined {
    return this.nodes.get(sha256)?.text
  }

  /** The node's text; throws MissingNodes when it is not cached. */
  loadedText(space: string, sha256: string): string {
    const text = this.text(sha256)
    if (text === undefined) throw new MissingNodes([{ space, sha256 }])
    return text
  }

  /** The decoded node; throws MissingNodes when it is not cached, so the caller can load it and run again. */
  node(shape: TreeShape, sha256: string, level: number): TreeNode {
    const cached = this.nodes.get(sha256)
    if (!cached) throw new MissingNodes([{ space: shape.space, sha256 }])
    // Recently used entries move to the back, so eviction takes the coldest (an unbounded cache evicts nothing).
    if (this.budget !== Number.POSITIVE_INFINITY) {
      this.nodes.delete(sha256)
      this.nodes.set(sha256, cached)
    }
    const codec = level === 0 ? shape.codec : undefined
    if (!cached.decoded || cached.codec !== codec) {
      cached.decoded = codec ? { level: 0, entries: codec.decode(cached.text) } : decodeInternal(cached.text)
      cached.codec = codec
    }
    return cached.decoded
  }

  get bytes(): number {
    return this.size
  }

  get count(): number {
    return this.nodes.size
  }
}
