/** Byte-order comparison, the same in every runtime and locale: the order `sort()` gives strings without one. */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}
