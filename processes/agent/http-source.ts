import { clusterKeys } from '../../core/keys/cluster-keys.ts'
import { StorageError, type ObjectStore } from '../../core/ports/object-store.ts'

/**
 * A cluster's content read over the HTTP API (`…/blobs/<sha256>`), as the ObjectStore the
 * commit protocol's readers take: an agent verifies a generation exactly as a function does.
 * Read-only: every write is refused.
 */
export function httpSource(baseUrl: string, cluster: string, token: string, fetcher: typeof fetch = fetch): ObjectStore {
  const prefix = `${clusterKeys(cluster).root}blobs/`
  const refuse = (operation: StorageError['operation'], key: string): never => {
    throw new StorageError(operation, key, new Error('the HTTP source is read-only'))
  }
  const inFlight = limiter(BLOBS_IN_FLIGHT)
  return {
    async get(key) {
      if (!key.startsWith(prefix)) throw new StorageError('get', key, new Error('only blobs are served over HTTP'))
      const url = `${baseUrl}/v1/clusters/${cluster}/blobs/${key.slice(prefix.length)}`
      return inFlight(() => getBlob(url, key))
    },
    head: async (key) => refuse('head', key),
    put: async (key) => refuse('put', key),
    list: (prefix) => refuse('list', prefix),
    delete: async (keys) => refuse('delete', keys[0] ?? ''),
  }

  async function getBlob(url: string, key: string) {
    const response = await fetcher(url, { headers: { authorization: `Bearer ${token}` } }).catch((error: unknown) => {
      throw new StorageError('get', key, error)
    })
    if (response.status === 404) return undefined
    if (!response.ok) throw new StorageError('get', key, new Error(`${response.status} ${await response.text()}`))
    const body = new Uint8Array(await response.arrayBuffer())
    return { body, etag: response.headers.get('etag') ?? '', size: body.byteLength }
  }
}

/**
 * Blob requests in flight at once. A cold read of a large generation asks for a whole level of
 * nodes together (some 10,000 chunks at 20,000 Ingresses): that many connections opened at once
 * to one server can time out under load and fail the whole read, where a few at a time finish.
 */
export const BLOBS_IN_FLIGHT = 32

/** Runs tasks with at most `limit` at once, the others waiting their turn in order. */
function limiter(limit: number): <T>(task: () => Promise<T>) => Promise<T> {
  let running = 0
  const waiting: (() => void)[] = []
  return async (task) => {
    // A finished task hands its place to the next waiting one, so none starts past the limit meanwhile.
    if (running < limit) running++
    else await new Promise<void>((resolve) => waiting.push(resolve))
    try {
      return await task()
    } finally {
      const next = waiting.shift()
      if (next) next()
      else running--
    }
  }
}
