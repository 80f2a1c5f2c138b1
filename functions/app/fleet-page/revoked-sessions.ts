import type { ObjectStore } from '../../../core/ports/object-store.ts'

/** Where signed-out sessions are kept, each under `<expiry>.<nonce>`, its id. */
const PREFIX = 'fleet-page/signed-out/'

/** Sessions signed out before they expire. */
export interface RevokedSessions {
  has(id: string): Promise<boolean>
  add(id: string, expires: Date, now: Date): Promise<void>
}

/**
 * Signed-out sessions, kept in the object store until they would have expired: the app also runs
 * stateless (Workers, Lambda), where a revocation kept in memory would hold in one instance only.
 * A key starts with its session's expiry, so a sign-out clears the revocations past theirs by
 * listing alone; there are as many as sign-outs in the last session lifetime.
 */
export function revokedSessions(store: ObjectStore): RevokedSessions {
  return {
    has: async (id) => (await store.head(PREFIX + id)) !== undefined,
    async add(id, expires, now) {
      await store.put(PREFIX + id, `${expires.toISOString()}\n`)
      const expired: string[] = []
      for await (const { key } of store.list(PREFIX)) if (Number(key.slice(PREFIX.length).split('.')[0]) * 1000 <= now.getTime()) expired.push(key)
      if (expired.length > 0) await store.delete(expired)
    },
  }
}
