/**
 * `compute` memoised per object: what the cluster sends is never changed in place (a change is a
 * new object), so identity says the answer still holds. Entries go with their objects.
 */
export function perObject<K extends object, V>(compute: (object: K) => V): (object: K) => V {
  const found = new WeakMap<K, V>()
  return (object) => {
    // One lookup for a value found; a second only to tell an undefined value from none.
    const known = found.get(object)
    if (known !== undefined || found.has(object)) return known as V
    const value = compute(object)
    found.set(object, value)
    return value
  }
}
