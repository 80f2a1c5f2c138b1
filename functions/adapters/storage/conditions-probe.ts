import type { ObjectStore } from '../../../core/ports/object-store.ts'

/** An etag the probe object never has: the SHA-256 of nothing, not the MD5 S3 gives it nor the SHA-256 of its body. */
const NO_SUCH_ETAG = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'

/**
 * Whether the store refuses a put whose condition fails, as HEAD's compare-and-swap needs: a
 * create-only put of a key that exists, and a put that names an etag the key does not have,
 * must both come back refused. A server that ignores If-None-Match and If-Match (s3rver, S3 before
 * 2024, older MinIO) takes both, and several writers on it would overwrite each other's
 * generations. Writes `key` (a few bytes, kept); safe for several processes probing at once.
 */
export async function honoursConditions(store: ObjectStore, key: string): Promise<boolean> {
  const body = 'hapedge checks that this store refuses writes whose condition fails\n'
  await store.put(key, body, { ifNoneMatch: '*' })
  const createdTwice = await store.put(key, body, { ifNoneMatch: '*' })
  const staleReplaced = await store.put(key, body, { ifMatch: NO_SUCH_ETAG })
  return createdTwice === undefined && staleReplaced === undefined
}
