/** `size` bytes of deterministic noise (xorshift32), so a large object is neither constant nor compressible. */
export function noise(size: number, seed = 0x9e3779b9): Uint8Array {
  const bytes = new Uint8Array(size)
  let state = seed >>> 0
  for (let i = 0; i < size; i++) {
    state ^= state << 13
    state ^= state >>> 17
    state ^= state << 5
    state >>>= 0
    bytes[i] = state & 0xff
  }
  return bytes
}

/** The first index where the two differ, or -1: a readable failure where a diff of megabytes is not. */
export function firstDifference(a: Uint8Array, b: Uint8Array): number {
  const length = Math.min(a.length, b.length)
  for (let i = 0; i < length; i++) if (a[i] !== b[i]) return i
  return a.length === b.length ? -1 : length
}
