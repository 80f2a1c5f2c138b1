/**
 * The object store port: a flat namespace of immutable-by-convention objects with one mutable
 * exception (a cluster's HEAD), moved only by conditional writes. Local disk, S3 and R2 implement
 * it in `functions/adapters/storage/`; one contract suite (test/support/contracts) runs against each.
 */
export interface ObjectStore {
  /** The object's bytes and entity tag, or undefined when the key does not exist. */
  get(key: string): Promise<StoredObject | undefined>
  /** The object's entity tag and size without its body, or undefined when missing. */
  head(key: string): Promise<ObjectInfo | undefined>
  /**
   * Writes the object. With a condition, the write happens only if it holds, atomically:
   * `{ ifNoneMatch: '*' }` creates only, `{ ifMatch: etag }` replaces only the version read.
   * Returns the new entity tag, or `undefined` when the condition failed (412, or 409 for a
   * concurrent conditional write): the caller lost a race and should re-read.
   */
  put(key: string, body: Uint8Array | string, condition?: PutCondition): Promise<string | undefined>
  /** Every key under `prefix`, in lexical order, with size and last-modified time. */
  list(prefix: string): AsyncIterable<ListedObject>
  /** Deletes the keys; a missing key is not an error. */
  delete(keys: readonly string[]): Promise<void>
}

export interface ObjectInfo {
  etag: string
  size: number
}

export interface StoredObject extends ObjectInfo {
  body: Uint8Array
}

export interface ListedObject {
  key: string
  size: number
  lastModified: Date
}

export type PutCondition = { ifNoneMatch: '*' } | { ifMatch: string }

/** A storage failure, naming the operation and the key, so an error says what failed and where. */
export class StorageError extends Error {
  constructor(
    readonly operation: 'get' | 'head' | 'put' | 'list' | 'delete',
    readonly key: string,
    cause: unknown,
  ) {
    super(`storage ${operation} ${key} failed: ${cause instanceof Error ? cause.message : String(cause)}`, { cause })
    this.name = 'StorageError'
  }
}
