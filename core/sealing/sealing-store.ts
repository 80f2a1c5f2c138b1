import type { AesGcm } from '../crypto/aes-gcm.ts'
import { SealedValueError } from '../crypto/errors.ts'
import { isSealedBody, openBody, sealBody } from '../crypto/sealed-body.ts'
import { toBytes } from '../hash.ts'
import type { ObjectStore } from '../ports/object-store.ts'
import { CorruptObject } from '../reading/errors.ts'

/** A cluster's data key, or undefined when the deployment seals nothing (no secret). A failure to find one is thrown. */
export type DataKeyOf = (cluster: string) => Promise<CryptoKey | undefined>

/**
 * The objects whose bodies are sealed: a cluster's content (snapshot nodes with TLS keys, rendered
 * files with PEM keys, and the objects a resync session's pages stage, TLS Secrets among them).
 */
const SEALED_KEY = /^clusters\/([a-z0-9-]+)\/(?:nodes|blobs|resync\/[^/]+\/pages)\//

/**
 * An ObjectStore that seals the body of every `clusters/<id>/nodes/…` and `clusters/<id>/blobs/…`
 * object with its cluster's data key (AES-GCM, the storage key as additional data) and opens it
 * on `get`. Names stay the sha256 of the plaintext, so content addressing, verification, GC and
 * the agents' protocol are unchanged; HEAD, generation records and the registry hold hashes and
 * plans, and pass through. A body stored before sealing (plaintext) still reads; a sealed body
 * that does not open is a CorruptObject naming its key, never content. `head` and `list` report
 * the stored size, which for a sealed body is the plaintext's plus SEALED_BODY_OVERHEAD. `gcm`
 * is the AES-GCM the runtime does best (WebCrypto by default).
 */
export function sealingStore(store: ObjectStore, dataKeyOf: DataKeyOf, gcm?: AesGcm): ObjectStore {
  const keyFor = async (cluster: string, failure: (error: Error) => Error) => {
    try {
      return await dataKeyOf(cluster)
    } catch (error) {
      throw failure(error as Error)
    }
  }
  return {
    async get(key) {
      const stored = await store.get(key)
      const cluster = SEALED_KEY.exec(key)?.[1]
      if (!stored || cluster === undefined || !isSealedBody(stored.body)) return stored
      const dataKey = await keyFor(
        cluster,
        (error) => new CorruptObject(key, `sealed, and the data key of cluster ${cluster} is unavailable: ${error.message}`),
      )
      if (!dataKey)
        throw new CorruptObject(
          key,
          `sealed, but this deployment has no data key for cluster ${cluster}: configure the deployment secret (HAPEDGE_SECRET) it was sealed under`,
        )
      try {
        const body = await openBody(dataKey, stored.body, key, gcm)
        return { etag: stored.etag, size: body.length, body }
      } catch (error) {
        const why = error instanceof SealedValueError && error.failure === 'format' ? 'truncated' : 'altered, or stored under another key or cluster'
        throw new CorruptObject(key, `the sealed body does not open with the data key of cluster ${cluster}: ${why}`)
      }
    },
    async put(key, body, condition) {
      const cluster = SEALED_KEY.exec(key)?.[1]
      // A failure to find the key fails the write: content meant to be sealed is never stored in the clear.
      const dataKey =
        cluster === undefined
          ? undefined
          : await keyFor(
              cluster,
              (error) => new Error(`${key}: not written, the data key of cluster ${cluster} is unavailable: ${error.message}`, { cause: error }),
            )
      return store.put(key, dataKey ? await sealBody(dataKey, toBytes(body), key, gcm) : body, condition)
    },
    head: (key) => store.head(key),
    list: (prefix) => store.list(prefix),
    delete: (keys) => store.delete(keys),
  }
}
