import type { ObjectStore } from '../../../core/ports/object-store.ts'

/**
 * Adds one to the decimal counter at `key` by compare-and-swap, re-reading after each lost race:
 * the commit protocol's loop in miniature. Returns how many attempts it took.
 */
export async function casIncrement(store: ObjectStore, key: string, maxAttempts = 1000): Promise<number> {
  for (let attempt = 1; attempt <= maxAttempts; attempt++) {
    const current = await store.get(key)
    const value = current ? Number(new TextDecoder().decode(current.body)) : 0
    const condition = current ? { ifMatch: current.etag } : { ifNoneMatch: '*' as const }
    if (await store.put(key, String(value + 1), condition)) return attempt
  }
  throw new Error(`casIncrement ${key}: still losing after ${maxAttempts} attempts`)
}

/** The counter's value, 0 when it does not exist. */
export async function readCounter(store: ObjectStore, key: string): Promise<number> {
  const current = await store.get(key)
  return current ? Number(new TextDecoder().decode(current.body)) : 0
}
