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
