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
  return {
    async get(key) {
      if (!key.startsWith(prefix)) throw new StorageError('get', key, new Error('only blobs are served over HTTP'))
      const url = `${baseUrl}/v1/clusters/${cluster}/blobs/${key.slice(prefix.length)}`
      const response = await fetcher(url, { headers: { authorization: `Bearer ${token}` } }).catch((error: unknown) => {
        throw new StorageError('get', key, error)
      })
      if (response.status === 404) return undefined
      if (!response.ok) throw new StorageError('get', key, new Error(`${response.status} ${await response.text()}`))
      const body = new Uint8Array(await response.arrayBuffer())
      return { body, etag: response.headers.get('etag') ?? '', size: body.byteLength }
    },
    head: async (key) => refuse('head', key),
    put: async (key) => refuse('put', key),
    list: (prefix) => refuse('list', prefix),
    delete: async (keys) => refuse('delete', keys[0] ?? ''),
  }
}
