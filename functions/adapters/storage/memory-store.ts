import { sha256Hex, toBytes } from '../../../core/hash.ts'
import type { ObjectInfo, ObjectStore, PutCondition, StoredObject } from '../../../core/ports/object-store.ts'
import { compareKeys } from './compare-keys.ts'
import { conditionHolds } from './condition-holds.ts'

interface Entry extends ObjectInfo {
  body: Uint8Array
  lastModified: Date
}

/**
 * An ObjectStore in a Map, for fast tests: the etag is the content's SHA-256 as on disk, and a
 * conditional put checks and writes with no await between, so it is a real compare-and-swap.
 */
export function createMemoryStore(): ObjectStore {
  const entries = new Map<string, Entry>()
  return {
    async get(key) {
      const entry = entries.get(key)
      return entry && ({ etag: entry.etag, size: entry.size, body: entry.body.slice() } satisfies StoredObject)
    },
    async head(key) {
      const entry = entries.get(key)
      return entry && { etag: entry.etag, size: entry.size }
    },
    async put(key, body, condition?: PutCondition) {
      const bytes = toBytes(body).slice()
      const etag = await sha256Hex(bytes)
      if (!conditionHolds(condition, entries.get(key)?.etag)) return undefined
      entries.set(key, { etag, size: bytes.length, body: bytes, lastModified: new Date() })
      return etag
    },
    async *list(prefix) {
      const keys = [...entries.keys()].filter((key) => key.startsWith(prefix)).sort(compareKeys)
      for (const key of keys) {
        const entry = entries.get(key)
        if (entry) yield { key, size: entry.size, lastModified: entry.lastModified }
      }
    },
    async delete(keys) {
      for (const key of keys) entries.delete(key)
    },
  }
}
