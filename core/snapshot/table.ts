import type { TreeEntry } from '../tree/node.ts'
import type { Tree } from '../tree/tree.ts'
import type { WriteSteps } from './write-steps.ts'
import { sortFew } from '../sort-few.ts'
import { compareText } from '../compare-text.ts'

/**
 * Values by key, stored as JSON under a prefix of the snapshot tree. Values read are treated
 * as immutable: to change one, set a new one.
 */
export class Table<V> {
  /** Pending writes (undefined: deleted) and decoded reads. */
  private readonly writes = new Map<string, V | undefined>()
  private readonly reads = new Map<string, V | undefined>()
  /**
   * The pending writes' keys by their first segment (`Gateway/` of `Gateway/ns/name`): a scan of a
   * few keys reads its own kind's, where a resync's full build has tens of thousands pending. Made
   * at the first such scan, then kept up: a full rebuild writes a host table it only scans whole.
   */
  private writtenKeys: Map<string, string[]> | undefined

  constructor(
    private readonly base: Tree,
    readonly prefix: string,
  ) {}

  get(key: string): V | undefined {
    // One lookup for a pending write; a second only to tell a deletion (undefined) from no write.
    const written = this.writes.get(key)
    if (written !== undefined) return written
    // Over an empty tree (the full rebuild's), a deletion and no write both read as nothing, and a
    // miss is not remembered: it would double the table.
    if (this.base.count === 0 || this.writes.has(key)) return undefined
    if (this.reads.has(key)) return this.reads.get(key)
    const text = this.base.get(this.prefix + key)
    const value = text === undefined ? undefined : (JSON.parse(text) as V)
    this.reads.set(key, value)
    return value
  }

  has(key: string): boolean {
    return this.get(key) !== undefined
  }

  set(key: string, value: V): void {
    this.write(key, value)
  }

  delete(key: string): void {
    this.write(key, undefined)
  }

  private write(key: string, value: V | undefined): void {
    const size = this.writes.size
    this.writes.set(key, value)
    // A key's first write lists it under its segment, once: a key never leaves the writes (a deletion is undefined).
    if (this.writes.size !== size && this.writtenKeys) listUnderSegment(this.writtenKeys, key)
  }

  /** The stored entries whose key starts with `within`: none looked up over an empty tree (the full rebuild's). */
  private stored(within: string): Iterable<TreeEntry> {
    return this.base.count === 0 ? [] : this.base.prefix(this.prefix + within)
  }

  /** The keys of pending writes that may start with `within`: those of its first segment, or all when it has none. */
  private writtenWithin(within: string): Iterable<string> {
    const segment = firstSegment(within)
    if (segment === '') return this.writes.keys()
    if (!this.writtenKeys) {
      this.writtenKeys = new Map()
      for (const key of this.writes.keys()) listUnderSegment(this.writtenKeys, key)
    }
    return this.writtenKeys.get(segment) ?? []
  }

  /** Every entry (or those whose key starts with `within`), in key order: a scan, for small tables and whole-cluster work. */
  *entries(within = ''): Generator<[string, V]> {
    // Read whole before the first is yielded: a caller that writes the table as it goes sees the entries as they were.
    yield* this.keys(within).map((key): [string, V] => [key, this.get(key) as V])
  }

  /** Every key (or those that start with `within`), in key order, their values not decoded: a scan. */
  keys(within = ''): string[] {
    const keys: string[] = []
    // A stored key that is written is taken with the writes (unless deleted): each key comes once.
    for (const entry of this.stored(within)) {
      const key = entry.key.slice(this.prefix.length)
      if (!this.writes.has(key)) keys.push(key)
    }
    for (const key of this.writtenWithin(within)) if (this.writes.get(key) !== undefined && key.startsWith(within)) keys.push(key)
    return sortFew(keys, compareText)
  }

  /**
   * How many entries there are (or whose key starts with `within`): the stored ones counted from
   * the tree's rows along the range's two edges, whatever their number, then the pending writes.
   */
  count(within = ''): number {
    let count = this.base.countRange(...this.countEdges(within))
    for (const key of this.writtenWithin(within)) {
      const value = this.writes.get(key)
      if (!key.startsWith(within)) continue
      const stored = this.base.get(this.prefix + key) !== undefined
      if (value !== undefined && !stored) count++
      else if (value === undefined && stored) count--
    }
    return count
  }

  /** The two tree keys whose paths `count(within)` reads, to be loaded ahead. */
  countEdges(within = ''): [string, string] {
    return [this.prefix + within, `${this.prefix}${within}\uffff`]
  }

  /** The pending writes as tree edits, in key order, in `steps`: a full resync's are tens of thousands, each written out as JSON. */
  *edits(into: Map<string, string | undefined>, steps: WriteSteps): Generator<void> {
    for (const key of [...this.writes.keys()].sort()) {
      const value = this.writes.get(key)
      const text = value === undefined ? undefined : JSON.stringify(value)
      into.set(this.prefix + key, text)
      if (steps.filled(text?.length ?? 0)) yield
    }
  }
}

function listUnderSegment(keysBySegment: Map<string, string[]>, key: string): void {
  const segment = firstSegment(key)
  const keys = keysBySegment.get(segment)
  if (keys) keys.push(key)
  else keysBySegment.set(segment, [key])
}

/** A key's first segment with its slash (`Gateway/`), or '' when it has none. */
function firstSegment(key: string): string {
  return key.slice(0, key.indexOf('/') + 1)
}
