import { isBoundary, isNarrowBoundary, keyHash } from '../chunks/boundary.ts'
import type { TreeEntry } from './node.ts'

/** How a leaf's entries become the leaf's text and back; `decode(encode(e))` must equal `e`. */
export interface LeafCodec {
  encode(entries: readonly TreeEntry[]): string
  decode(text: string): TreeEntry[]
  /** What a leaf weighs (by default its text's UTF-8 length): summed up the tree into the root. */
  weigh?(entries: readonly TreeEntry[], text: string): number
}

/**
 * What kind of tree this is: where its nodes are stored (`space`), how leaves are written, and
 * how many entries (children) a node holds on average. Boundaries depend on keys (and a narrow
 * leaf's on where it began), so the same entries give the same nodes whatever order they came in.
 */
export interface TreeShape {
  space: string
  codec: LeafCodec
  /** Entries per leaf on average; it may depend on the key (large values, fewer per leaf), never on anything else. */
  leafTarget: number | ((key: string) => number)
  /** Leaf sizes: 'narrow' about leafTarget (isNarrowBoundary); by default geometric, a key alone ending a leaf (isBoundary). */
  leafSpread?: 'narrow'
  /**
   * A value longer than this (UTF-16 code units) ends its leaf, so the entries after it share no
   * leaf with it: one such value weighs as much as a leaf of ordinary ones, and every edit of a
   * neighbour rewrote it. None: leaves end by key alone.
   */
  largeValue?: number
  branchTarget: number
  /** Interior node sizes, as leafSpread: 'narrow' about branchTarget children; by default geometric. */
  branchSpread?: 'narrow'
}

/**
 * Children an internal node holds, cut narrowly (branchSpread), in the snapshot, the manifest and
 * chunk lists. Cut geometrically about 16, the node an edit rewrote held twice that on average
 * and over a hundred in the tail (size-biased, as leaves were before isNarrowBoundary); narrowly
 * about 24 it holds ~27, so an event writes fewer internal bytes and, at 20,000 Ingresses, fewer
 * levels and files.
 */
export const BRANCH_TARGET = 24

/** Whether `item` (an entry of a leaf, or a child's ref), the `entries`th item of the node being cut at `level`, ends it. */
export function endsNode(shape: TreeShape, level: number, item: { key: string; value?: string }, entries: number): boolean {
  const { key, value } = item
  if (level === 0) {
    if (shape.largeValue !== undefined && value !== undefined && value.length > shape.largeValue) return true
    const target = typeof shape.leafTarget === 'number' ? shape.leafTarget : shape.leafTarget(key)
    return shape.leafSpread === 'narrow' ? isNarrowBoundary(key, target, entries) : isBoundary(key, target)
  }
  // Each level draws its own boundaries, independent of the levels below.
  const levelKey = `${level}\u0000${key}`
  return shape.branchSpread === 'narrow' ? isNarrowBoundary(levelKey, shape.branchTarget, entries) : keyHash(levelKey) < 0x1_0000_0000 / shape.branchTarget
}

const NON_ASCII = /[^\u0000-\u007f]/

export function utf8Length(text: string): number {
  // Most text is ASCII, one byte a code unit: one regular-expression scan instead of a loop of charCodeAt.
  if (!NON_ASCII.test(text)) return text.length
  let length = text.length
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (code < 0x80) continue
    if (code < 0x800) length += 1
    else if (code >= 0xd800 && code <= 0xdbff) {
      // A surrogate pair: two code units, four bytes.
      length += 2
      i++
    } else length += 2
  }
  return length
}

/** Leaves as JSON lines `[key, value]`: the model snapshot and the manifest. */
export const jsonLines: LeafCodec = {
  encode(entries) {
    let text = ''
    for (const entry of entries) text += `${JSON.stringify([entry.key, entry.value])}\n`
    return text
  },
  decode(text) {
    const entries: TreeEntry[] = []
    for (const row of text.split('\n')) {
      if (row === '') continue
      const [key, value] = JSON.parse(row) as [string, string]
      entries.push({ key, value })
    }
    return entries
  },
}
