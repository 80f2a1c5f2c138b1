import type { ObjectStore } from '../../../core/ports/object-store.ts'

/** An etag the probe objects never have: the SHA-256 of nothing, not the MD5 S3 gives them nor the SHA-256 of their body. */
const NO_SUCH_ETAG = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'
const BODY = 'hapedge checks that this store refuses writes whose condition fails\n'

/**
 * Which conditions the store ignores, of those HEAD's compare-and-swap needs refused when they
 * fail: a create-only put of a key that exists, a put naming an etag the key does not have, and
 * one naming an etag for a key that does not exist (MinIO wrote it until minio/minio#21526).
 * Empty when it honours them all. A server that ignores them (s3rver, S3 before 2024, older
 * MinIO) lets several writers overwrite each other's generations. Writes `key` (a few bytes,
 * kept) and, on such a server only, `<key>-missing` (deleted again); safe for several processes
 * probing at once.
 */
export async function ignoredConditions(store: ObjectStore, key: string): Promise<string[]> {
  await store.put(key, BODY, { ifNoneMatch: '*' })
  const ignored: string[] = []
  if ((await store.put(key, BODY, { ifNoneMatch: '*' })) !== undefined) ignored.push('If-None-Match: * on a key that exists')
  if ((await store.put(key, BODY, { ifMatch: NO_SUCH_ETAG })) !== undefined) ignored.push('If-Match with another etag')
  const missing = `${key}-missing`
  if ((await store.put(missing, BODY, { ifMatch: NO_SUCH_ETAG })) !== undefined) {
    ignored.push('If-Match on a key that does not exist')
    await store.delete([missing])
  }
  return ignored
}
