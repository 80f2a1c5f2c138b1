/**
 * `compute` memoised per object: what the cluster sends is never changed in place (a change is a
 * new object), so identity says the answer still holds. Entries go with their objects.
 */
export function perObject<K extends object, V>(compute: (object: K) => V): (object: K) => V {
  const found = new WeakMap<K, V>()
  return (object) => {
    if (found.has(object)) return found.get(object) as V
    const value = compute(object)
    found.set(object, value)
    return value
  }
}
