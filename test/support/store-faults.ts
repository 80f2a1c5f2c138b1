import type { ObjectStore } from '../../core/ports/object-store.ts'

/** Wraps a store so a test can make chosen calls fail: `failWhen` sees each call (operation and key) and returns the error to throw. */
export function faultyStore(inner: ObjectStore, failWhen: (operation: keyof ObjectStore, key: string) => Error | undefined): ObjectStore {
  const check = async (operation: keyof ObjectStore, key: string) => {
    const fault = failWhen(operation, key)
    if (fault) throw fault
  }
  return {
    get: async (key) => (await check('get', key), inner.get(key)),
    head: async (key) => (await check('head', key), inner.head(key)),
    put: async (key, body, condition) => (await check('put', key), inner.put(key, body, condition)),
    list: (prefix) => inner.list(prefix),
    delete: async (keys) => {
      for (const key of keys) await check('delete', key)
      return inner.delete(keys)
    },
  }
}

/** Wraps a store so every call takes a random 0–`maxMs` ms, as a network store does: concurrent callers interleave for real. */
export function slowStore(inner: ObjectStore, maxMs = 2): ObjectStore {
  const pause = () => new Promise((resolve) => setTimeout(resolve, Math.random() * maxMs))
  return {
    get: async (key) => (await pause(), inner.get(key)),
    head: async (key) => (await pause(), inner.head(key)),
    put: async (key, body, condition) => (await pause(), inner.put(key, body, condition)),
    list: (prefix) => inner.list(prefix),
    delete: async (keys) => (await pause(), inner.delete(keys)),
  }
}
