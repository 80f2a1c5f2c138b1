import { SEPARATOR } from './separator.ts'
import type { Tree } from '../tree/tree.ts'
import type { WriteSteps } from './write-steps.ts'
import { sortFew } from '../sort-few.ts'
import { compareText } from '../compare-text.ts'

/**
 * A one-to-many index (`key → members`) stored as empty entries `key␁member` under a prefix of
 * the snapshot tree, so the members of one key are one range scan and a key without members
 * takes no space.
 */
export class SetIndex {
  /** Pending changes per key: member → true (added) or false (removed). */
  private readonly writes = new Map<string, Map<string, boolean>>()
  private readonly reads = new Map<string, string[]>()

  constructor(
    private readonly base: Tree,
    readonly prefix: string,
  ) {}

  add(key: string, member: string): void {
    this.pending(key).set(member, true)
  }

  delete(key: string, member: string): void {
    this.pending(key).set(member, false)
  }

  /** The members of `key`, sorted. */
  members(key: string): string[] {
    const changes = this.writes.get(key)
    const stored = this.stored(key)
    if (!changes) return stored
    if (stored.length === 0) return added(changes)
    const members = new Set(stored)
    for (const [member, present] of changes) {
      if (present) members.add(member)
      else members.delete(member)
    }
    return [...members].sort()
  }

  /** Every key that has members, in order (a scan of the whole index). */
  keys(): string[] {
    const keys = new Set<string>()
    for (const entry of this.base.prefix(this.prefix)) keys.add(entry.key.slice(this.prefix.length, entry.key.indexOf(SEPARATOR, this.prefix.length)))
    for (const key of this.writes.keys()) keys.add(key)
    return [...keys].filter((key) => this.members(key).length > 0).sort()
  }

  /**
   * How many members `key` has, or the whole index without one: the stored entries counted from
   * the tree's rows along the range's two edges, whatever their number, then the pending changes.
   */
  count(key?: string): number {
    let count = this.base.countRange(...this.countEdges(key))
    for (const [changed, changes] of this.writes) {
      if (key !== undefined && changed !== key) continue
      for (const [member, present] of changes) {
        const stored = this.base.get(`${this.prefix}${changed}${SEPARATOR}${member}`) !== undefined
        if (present && !stored) count++
        else if (!present && stored) count--
      }
    }
    return count
  }

  /** The two tree keys whose paths `count(key)` reads, to be loaded ahead. */
  countEdges(key?: string): [string, string] {
    const within = key === undefined ? this.prefix : `${this.prefix}${key}${SEPARATOR}`
    return [within, `${within}\uffff`]
  }

  /** The pending changes as tree edits, in key order, in `steps` (one class of a full resync has tens of thousands of members). */
  *edits(into: Map<string, string | undefined>, steps: WriteSteps): Generator<void> {
    for (const key of [...this.writes.keys()].sort()) {
      const changes = this.writes.get(key)!
      for (const member of [...changes.keys()].sort()) {
        into.set(`${this.prefix}${key}${SEPARATOR}${member}`, changes.get(member) ? '' : undefined)
        if (steps.filled(0)) yield
      }
    }
  }

  private stored(key: string): string[] {
    if (this.base.count === 0) return []
    let members = this.reads.get(key)
    if (!members) {
      const prefix = `${this.prefix}${key}${SEPARATOR}`
      members = []
      for (const entry of this.base.prefix(prefix)) members.push(entry.key.slice(prefix.length))
      this.reads.set(key, members)
    }
    return members
  }

  private pending(key: string): Map<string, boolean> {
    let changes = this.writes.get(key)
    if (!changes) this.writes.set(key, (changes = new Map()))
    return changes
  }
}

/** The members a key's pending changes add, sorted: all of them when nothing is stored (the full rebuild). */
function added(changes: Map<string, boolean>): string[] {
  const members: string[] = []
  for (const [member, present] of changes) if (present) members.push(member)
  return sortFew(members, compareText)
}
