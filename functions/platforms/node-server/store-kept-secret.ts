import type { ObjectStore } from '../../../core/ports/object-store.ts'

/** Rounds of read-then-create before giving up: a create lost to a secret that is gone again by the read means someone deletes it meanwhile. */
const ROUNDS = 5

/**
 * A secret kept in the store at `key` (`where` names it in errors): the one stored, or, when there
 * is none and `make` is given, a new one created only while the key is still missing (If-None-Match:
 * *). Replicas starting at once on an empty store agree on one: each makes its own and tries to
 * create it, one wins, the others' creates are refused and they read the winner's. Undefined when
 * there is none and nothing may be made.
 */
export async function storeKeptSecret(
  store: ObjectStore,
  key: string,
  where: string,
  make?: () => string,
): Promise<{ value: string; created: boolean } | undefined> {
  for (let round = 0; round < ROUNDS; round++) {
    const stored = await store.get(key)
    if (stored) {
      const value = new TextDecoder().decode(stored.body).trim()
      if (!value) throw new Error(`${where} is empty: write the secret in it, or delete it to have a new one made`)
      return { value, created: false }
    }
    if (!make) return undefined
    const value = make()
    if ((await store.put(key, `${value}\n`, { ifNoneMatch: '*' })) !== undefined) return { value, created: true }
  }
  throw new Error(`${where}: created by another process and gone again ${ROUNDS} times in a row; is something deleting it?`)
}
