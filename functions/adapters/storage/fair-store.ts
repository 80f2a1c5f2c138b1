import type { ListedObject, ObjectInfo, ObjectStore, PutCondition, StoredObject } from '../../../core/ports/object-store.ts'

const CLUSTERS = 'clusters/'

/** The cluster an object belongs to (`clusters/<id>/…`), or '' for everything else (the registry). */
function clusterOf(key: string): string {
  if (!key.startsWith(CLUSTERS)) return ''
  const end = key.indexOf('/', CLUSTERS.length)
  return key.slice(CLUSTERS.length, end < 0 ? undefined : end)
}

/**
 * An object store that takes turns between clusters: each cluster's operations wait in its own
 * queue, and the queues are served round-robin with at most `limit` operations in flight. On
 * local disk every operation runs in libuv's small thread pool and most end in an fsync, so
 * without turns one cluster's burst of writes fills the pool and the disk's queue, and a quiet
 * cluster's commit waits behind all of it. With turns it waits for the `limit` in flight and one
 * turn of each other busy cluster.
 */
export function fairStore(store: ObjectStore, limit = 4): ObjectStore {
  const queues = new Map<string, (() => void)[]>()
  let running = 0

  const next = () => {
    while (running < limit && queues.size > 0) {
      // The Map's first queue is served once, then goes to the back: round-robin by insertion order.
      const [cluster, queue] = queues.entries().next().value!
      const start = queue.shift()!
      queues.delete(cluster)
      if (queue.length > 0) queues.set(cluster, queue)
      running++
      start()
    }
  }

  const inTurn = <T>(key: string, operation: () => Promise<T>): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const cluster = clusterOf(key)
      const queue = queues.get(cluster) ?? []
      queue.push(() =>
        operation()
          .then(resolve, reject)
          .finally(() => {
            running--
            next()
          }),
      )
      if (!queues.has(cluster)) queues.set(cluster, queue)
      next()
    })

  return {
    get: (key): Promise<StoredObject | undefined> => inTurn(key, () => store.get(key)),
    head: (key): Promise<ObjectInfo | undefined> => inTurn(key, () => store.head(key)),
    put: (key: string, body: Uint8Array | string, condition?: PutCondition) => inTurn(key, () => store.put(key, body, condition)),
    delete: (keys) => inTurn(keys[0] ?? '', () => store.delete(keys)),
    // A listing is read page by page as its caller goes: it takes no turn, or a slow reader would hold one.
    list: (prefix): AsyncIterable<ListedObject> => store.list(prefix),
  }
}
