import { decodeInternal, MissingNodes, type TreeNode } from './node.ts'
import type { TreeShape } from './tree-shape.ts'

interface Cached {
  text: string
  decoded?: TreeNode
  /** Equal texts can be leaves of trees with different codecs (an empty leaf is everywhere). */
  codec?: TreeShape['codec']
  /** Read (or added) since the eviction sweep last passed it: it is passed over once more. */
  used: boolean
  /** The hold that read it (see hold): not evicted while that hold lasts. */
  held?: number
}

/**
 * Tree nodes by address, as text with their decoded form beside. Nodes are immutable, so an
 * entry never goes stale; the cache only forgets nodes not recently used beyond its budget (in
 * characters of node text), which bounds a warm process's memory. Recency is a flag a read sets
 * and a sweep clears (CLOCK, second chance): a read costs a store to the entry, where moving it
 * to the back of the Map (a delete and a set) cost ten times a read on the engine's hottest path.
 */
export class NodeCache {
  private readonly nodes = new Map<string, Cached>()
  private size = 0
  /** The eviction sweep's place in insertion order, kept between calls so each entry is passed once per round. */
  private sweep: Iterator<[string, Cached]> | undefined
  /**
   * Nodes a change made and has not stored yet, by address: storage cannot give them back, so
   * eviction must not lose them. Kept beside the budget (their texts are held by the change's
   * list of created nodes anyway) until the change is written or given up (forgetMade).
   */
  private readonly made = new Map<string, string>()
  /** The current hold's number (see hold), what it may still keep in characters, and whether it ran out; none: no hold. */
  private holding: { id: number; room: number; exceeded: boolean } | undefined
  private holds = 0
  /** Characters the current hold keeps: counted apart from the budget, which bounds the rest. */
  private heldSize = 0

  /**
   * @param budget characters of node text kept beside a hold (the warm nodes).
   * @param holdChars what a change may hold of the nodes it reads (see hold): by default half the budget.
   */
  constructor(
    readonly budget = Number.POSITIVE_INFINITY,
    readonly holdChars = budget / 2,
  ) {}

  /**
   * Keeps every node read from now until release, up to `chars` characters of them, beside the
   * budget (which bounds the rest, the warm nodes): a change that is rerun after each node it
   * finds missing then never evicts, while loading the next, a node its run before already read,
   * so its reruns end. Without it, a change whose nodes nearly fill the cache ran a hundred times,
   * each load evicting a node the run before had read. A node read once the room is used up is
   * kept as usual, and the hold says it was exceeded (a caller may then do less at a time).
   * One hold at a time: a new one replaces the last. Gives the hold's number, for release.
   */
  hold(chars: number): number {
    this.release()
    this.holding = { id: ++this.holds, room: chars, exceeded: false }
    return this.holds
  }

  /** Ends the hold (only hold `id`, when named: one that replaced it goes on): what it kept counts against the budget again, and is evicted as usual. */
  release(id?: number): void {
    if (this.holding === undefined || (id !== undefined && this.holding.id !== id)) return
    this.holding = undefined
    this.heldSize = 0
    this.evict()
  }

  /** Whether a hold is in force. */
  get holdInForce(): boolean {
    return this.holding !== undefined
  }

  /** Whether the current hold was given a node it had no room left for. */
  get holdExceeded(): boolean {
    return this.holding?.exceeded ?? false
  }

  /** Marks an entry read: used, and held while a hold has room (not one the change made, which made keeps). */
  private touch(sha256: string, cached: Cached): void {
    cached.used = true
    const holding = this.holding
    if (holding === undefined || cached.held === holding.id || this.made.has(sha256)) return
    if (holding.room < cached.text.length) {
      holding.exceeded = true
      return
    }
    cached.held = holding.id
    holding.room -= cached.text.length
    this.heldSize += cached.text.length
  }

  has(sha256: string): boolean {
    return this.nodes.has(sha256) || this.made.has(sha256)
  }

  /** A node a change just made: as add, and kept until forgetMade even if evicted meanwhile, so a hold need not keep it. */
  addMade(sha256: string, text: string, decoded?: { node: TreeNode; codec: TreeShape['codec'] | undefined }): void {
    // An unbounded cache forgets nothing, so it needs no second copy of the addresses.
    if (this.budget !== Number.POSITIVE_INFINITY) this.made.set(sha256, text)
    this.insert(sha256, text, decoded, false)
  }

  /** The change whose nodes these are was written, or given up: storage holds what is still needed. */
  forgetMade(): void {
    this.made.clear()
  }

  /** The entry of a node, brought back from the made nodes when evicted before it was stored. */
  private entry(sha256: string): Cached | undefined {
    const cached = this.nodes.get(sha256)
    if (cached) return cached
    const text = this.made.get(sha256)
    if (text === undefined) return undefined
    this.insert(sha256, text, undefined, false)
    return this.nodes.get(sha256)
  }

  /** Adds a node's text; a writer that just made the node passes its decoded form too, so it is never parsed back. */
  add(sha256: string, text: string, decoded?: { node: TreeNode; codec: TreeShape['codec'] | undefined }): void {
    this.insert(sha256, text, decoded, true)
  }

  private insert(sha256: string, text: string, decoded: { node: TreeNode; codec: TreeShape['codec'] | undefined } | undefined, held: boolean): void {
    if (this.nodes.has(sha256)) return
    const cached: Cached = decoded ? { text, decoded: decoded.node, codec: decoded.codec, used: true } : { text, used: true }
    this.nodes.set(sha256, cached)
    this.size += text.length
    if (held) this.touch(sha256, cached)
    this.evict()
  }

  /**
   * Forgets entries not used since the sweep last passed them, in insertion order, until the
   * entries the hold does not keep are within the budget, passing over held ones.
   */
  private evict(): void {
    const heldId = this.holding?.id
    // Two whole rounds without an eviction: every entry left is held.
    let passed = 0
    while (this.size - this.heldSize > this.budget && passed <= 2 * this.nodes.size) {
      let next = this.sweep?.next()
      if (!next || next.done) {
        this.sweep = this.nodes.entries()
        next = this.sweep.next()
        if (next.done) return
      }
      const [sha256, cached] = next.value
      passed++
      if (heldId !== undefined && cached.held === heldId) continue
      if (cached.used) cached.used = false
      else {
        passed = 0
        this.nodes.delete(sha256)
        this.size -= cached.text.length
      }
    }
  }

  /** The node's text, if cached. */
  text(sha256: string): string | undefined {
    const cached = this.entry(sha256)
    if (cached) this.touch(sha256, cached)
    return cached?.text
  }

  /** The node's text; throws MissingNodes when it is not cached. */
  loadedText(space: string, sha256: string): string {
    const text = this.text(sha256)
    if (text === undefined) throw new MissingNodes([{ space, sha256 }])
    return text
  }

  /** The decoded node; throws MissingNodes when it is not cached, so the caller can load it and run again. */
  node(shape: TreeShape, sha256: string, level: number): TreeNode {
    const cached = this.entry(sha256)
    if (!cached) throw new MissingNodes([{ space: shape.space, sha256 }])
    this.touch(sha256, cached)
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
