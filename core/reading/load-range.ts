import { isLeaf } from '../tree/node.ts'
import type { Tree } from '../tree/tree.ts'
import type { NodeLoader } from './node-loader.ts'

/** Keys `from <= key < to`. */
export type KeyRange = readonly [from: string, to: string]

/**
 * Loads every node of `tree` whose keys meet one of the ranges, a level per round: the nodes of
 * a level are named by their parents, so the round trips are the tree's depth whatever the
 * range holds (a scan run over a partly loaded tree would instead stop, load and start again at
 * each node it lacks). After it, `tree.scan` over the ranges reads from the cache, as long as
 * the cache can hold them.
 */
export function loadRanges(tree: Tree, ranges: readonly KeyRange[], loader: NodeLoader): Promise<void> {
  const { shape, context } = tree
  const meets = rangesMeeting(ranges)
  // Held while it lasts: a level larger than the cache evicted its first nodes before they were read.
  return loader.holding(async () => {
    let level = tree.root.level
    let frontier = [tree.root.sha256]
    for (;;) {
      const missing = frontier.filter((sha256) => !context.nodes.has(sha256))
      if (missing.length > 0) await loader.load(missing.map((sha256) => ({ space: shape.space, sha256 })))
      if (level === 0) return
      const below: string[] = []
      for (const sha256 of frontier) {
        const node = context.nodes.node(shape, sha256, level)
        if (isLeaf(node)) throw new Error(`tree node ${sha256} is a leaf at level ${level}`)
        // A child holds the keys after its left neighbour's last key, up to and with its own.
        let after: string | undefined
        for (const child of node.children) {
          if (meets(after, child.key)) below.push(child.sha256)
          after = child.key
        }
      }
      frontier = below
      level--
    }
  })
}

/**
 * Whether one of the ranges meets the keys after `after` (none: from the first), up to and with
 * `last`: a range that begins at or before `last` and ends after `after`. A binary search over
 * the ranges sorted by their start, each with the furthest end among it and those before it: a
 * finish slice of 2,000 staged items loads 6,000 point ranges, and trying each against every
 * child of every node held the thread 20-40 ms.
 */
function rangesMeeting(ranges: readonly KeyRange[]): (after: string | undefined, last: string) => boolean {
  const sorted = [...ranges].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  const furthest: string[] = []
  for (const [, to] of sorted) furthest.push(furthest.length > 0 && furthest.at(-1)! > to ? furthest.at(-1)! : to)
  return (after, last) => {
    // The number of ranges that begin at or before `last`.
    let [low, high] = [0, sorted.length]
    while (low < high) {
      const middle = (low + high) >>> 1
      if (sorted[middle]![0] <= last) low = middle + 1
      else high = middle
    }
    return low > 0 && (after === undefined || furthest[low - 1]! > after)
  }
}

/** Loads every node of `tree` whose keys meet `[from, to)`, a level per round. */
export function loadRange(tree: Tree, from: string, to: string, loader: NodeLoader): Promise<void> {
  return loadRanges(tree, [[from, to]], loader)
}
