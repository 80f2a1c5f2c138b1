import type { ListedObject, ObjectStore, PutCondition } from '../../../core/ports/object-store.ts'

/** Keys an S3 or R2 list answers per request. */
const LIST_PAGE_KEYS = 1_000

/**
 * The store, counting the operations made through it as a platform bills and bounds them: each
 * get, head, put and delete call, and each list page of up to 1,000 keys. A Worker may make only
 * so many subrequests per request; a request that reads the count at its start and as it goes
 * knows what it spent, with what others in the process spent meanwhile (a bound from above).
 */
export class CountedStore implements ObjectStore {
  operations = 0

  constructor(private readonly inner: ObjectStore) {}

  get(key: string) {
    this.operations++
    return this.inner.get(key)
  }

  head(key: string) {
    this.operations++
    return this.inner.head(key)
  }

  put(key: string, body: Uint8Array | string, condition?: PutCondition) {
    this.operations++
    return this.inner.put(key, body, condition)
  }

  delete(keys: readonly string[]) {
    this.operations++
    return this.inner.delete(keys)
  }

  async *list(prefix: string): AsyncIterable<ListedObject> {
    let listed = 0
    for await (const object of this.inner.list(prefix)) {
      if (listed++ % LIST_PAGE_KEYS === 0) this.operations++
      yield object
    }
    if (listed === 0) this.operations++
  }
}
