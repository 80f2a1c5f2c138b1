import { StorageError } from '../../../core/ports/object-store.ts'
import type { ObjectStore, PutCondition } from '../../../core/ports/object-store.ts'

/** The part of the Workers R2 binding (`R2Bucket`) this store uses, declared here to keep Workers types out of Node code. */
export interface R2BucketBinding {
  get(key: string): Promise<R2ObjectBodyLike | null>
  head(key: string): Promise<R2ObjectLike | null>
  put(key: string, value: Uint8Array | string, options?: { onlyIf?: R2ConditionalLike }): Promise<R2ObjectLike | null>
  list(options: { prefix: string; cursor?: string }): Promise<{ objects: R2ObjectLike[]; truncated: boolean; cursor?: string }>
  delete(keys: string[]): Promise<void>
}

interface R2ObjectLike {
  key: string
  etag: string
  size: number
  uploaded: Date
}

interface R2ObjectBodyLike extends R2ObjectLike {
  arrayBuffer(): Promise<ArrayBuffer>
}

interface R2ConditionalLike {
  etagMatches?: string
  etagDoesNotMatch?: string
}

export interface R2StoreOptions {
  /** The bucket binding from the Worker's environment (`env.STORE` with wrangler.toml's `[[r2_buckets]]`). */
  bucket: R2BucketBinding
}

/** R2's delete takes at most this many keys a call. */
const DELETE_BATCH = 1000

/**
 * R2's create-only and replace-if-unchanged: etagDoesNotMatch '*' holds only while the key is
 * missing, etagMatches the unquoted etag only while the version read is current. A failed
 * condition makes put resolve to null.
 */
function onlyIf(condition: PutCondition): R2ConditionalLike {
  return 'ifNoneMatch' in condition ? { etagDoesNotMatch: '*' } : { etagMatches: condition.ifMatch }
}

/** Objects in a Cloudflare R2 bucket through the Workers binding; etags are R2's, unquoted. */
export function createR2Store(options: R2StoreOptions): ObjectStore {
  const { bucket } = options
  if (!bucket) throw new Error('r2 store: options.bucket (an R2 binding) is required')

  async function at<T>(operation: StorageError['operation'], key: string, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn()
    } catch (error) {
      throw new StorageError(operation, key, error)
    }
  }

  return {
    get: (key) =>
      at('get', key, async () => {
        const object = await bucket.get(key)
        return object ? { body: new Uint8Array(await object.arrayBuffer()), etag: object.etag, size: object.size } : undefined
      }),
    head: (key) =>
      at('head', key, async () => {
        const object = await bucket.head(key)
        return object ? { etag: object.etag, size: object.size } : undefined
      }),
    put: (key, body, condition) =>
      at('put', key, async () => {
        const written = await bucket.put(key, body, condition && { onlyIf: onlyIf(condition) })
        return written?.etag
      }),
    async *list(prefix) {
      let cursor: string | undefined
      do {
        const page = await at('list', prefix, () => bucket.list({ prefix, ...(cursor && { cursor }) }))
        for (const object of page.objects) yield { key: object.key, size: object.size, lastModified: object.uploaded }
        cursor = page.truncated ? page.cursor : undefined
      } while (cursor)
    },
    async delete(keys) {
      for (let start = 0; start < keys.length; start += DELETE_BATCH) {
        const batch = keys.slice(start, start + DELETE_BATCH)
        await at('delete', batch[0]!, () => bucket.delete(batch))
      }
    },
  }
}
