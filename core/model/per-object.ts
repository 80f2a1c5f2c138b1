/** What a memo holds for an answer that is undefined, so that one lookup tells it from no answer yet. */
const UNDEFINED = Symbol('undefined')

/**
 * `compute` memoised per object: what the cluster sends is never changed in place (a change is a
 * new object), so identity says the answer still holds. Entries go with their objects.
 */
export function perObject<K extends object, V>(compute: (object: K) => V): (object: K) => V {
  const found = new WeakMap<K, V | typeof UNDEFINED>()
  return (object) => {
    // One lookup, whatever the answer (canaryOf's is undefined for all but canaries, and is asked of every Ingress of every host).
    const known = found.get(object)
    if (known !== undefined) return (known === UNDEFINED ? undefined : known) as V
    const value = compute(object)
    found.set(object, value === undefined ? UNDEFINED : value)
    return value
  }
}
