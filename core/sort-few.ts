/**
 * Sorts `items` in place and returns them, as `items.sort(compare)` does (stably), without the
 * set-up V8's sort makes at each call (100 to 300 bytes, and a fraction of a microsecond, even
 * for one item): a full rebuild sorts some 130,000 lists, nearly all of one to eight items (the
 * Ingresses of a host, its routes, a Service's servers). Longer lists go to `sort`.
 */
export function sortFew<T>(items: T[], compare: (a: T, b: T) => number): T[] {
  if (items.length > FEW) return items.sort(compare)
  for (let i = 1; i < items.length; i++) {
    const item = items[i]!
    let j = i - 1
    for (; j >= 0 && compare(items[j]!, item) > 0; j--) items[j + 1] = items[j]!
    items[j + 1] = item
  }
  return items
}

/** Up to this many items an insertion sort compares about as often as a merge sort would. */
const FEW = 16
