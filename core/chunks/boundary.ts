/**
 * Content-defined chunk boundaries that depend on a key alone: a chunk ends after every entry
 * whose key hashes below `2^32 / perChunk`. Which entries share a chunk is therefore a function
 * of the set of keys, not of the order they arrived in, and an edit never moves a boundary
 * other than its own (the rule of prolly trees and Merkle search trees).
 *
 * FNV-1a is enough here: boundaries need spread, not secrecy, and it is synchronous and cheap.
 */
export function keyHash(key: string): number {
  let hash = 0x811c9dc5
  for (let i = 0; i < key.length; i++) {
    hash ^= key.charCodeAt(i)
    hash = Math.imul(hash, 0x01000193)
  }
  // One extra avalanche round so keys differing only in their last character spread well.
  hash ^= hash >>> 15
  hash = Math.imul(hash, 0x2c1b3c6d)
  hash ^= hash >>> 12
  return hash >>> 0
}

export function isBoundary(key: string, perChunk: number): boolean {
  return keyHash(key) < 0x1_0000_0000 / perChunk
}

/** Γ(4/3): a Weibull distribution of shape 3 and scale λ has the mean λ·Γ(4/3). */
const GAMMA_4_3 = 0.8929795115692493

/**
 * Boundaries for chunks of about `perChunk` entries, narrowly spread: the entry that makes a
 * chunk `entries` long ends it when its key hashes below a limit that grows as `entries²` (a
 * Weibull hazard of shape 3). With `isBoundary` a chunk holds 1 to ~5× `perChunk` entries
 * (geometric), and the chunk a random entry lands in holds 2× `perChunk` on average: an edit
 * rewrites twice the mean. Here chunks hold `perChunk` ± a third, and the one an edit lands in
 * ~1.13× `perChunk`: as many chunks, half the bytes rewritten.
 *
 * A boundary now depends on where the chunk began, so an edit may move the boundaries after it
 * until the re-cut ends where an old chunk ended; Tree's edit re-cuts exactly that far, and
 * old trees cut by `isBoundary` are edited the same way. Only IEEE basic operations: every
 * runtime cuts the same.
 */
export function isNarrowBoundary(key: string, perChunk: number, entries: number): boolean {
  const scale = perChunk / GAMMA_4_3
  return keyHash(key) < (0x1_0000_0000 * 3 * entries * entries) / (scale * scale * scale)
}
