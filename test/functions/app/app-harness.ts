import type { CacheBudget } from '../../../functions/app/services/node-caches.ts'
import { createApp } from '../../../functions/app/app.ts'
import type { Limits } from '../../../functions/app/app-env.ts'
import { buildEnv } from '../../../functions/platforms/composition/build-env.ts'
import { sha256Text } from '../../../core/hash.ts'
import type { DeploymentSecrets } from '../../../core/crypto/deployment-key.ts'
import type { Clock } from '../../../core/ports/clock.ts'
import type { ObjectStore } from '../../../core/ports/object-store.ts'
import { createMemoryStore } from '../../../functions/adapters/storage/memory-store.ts'

export const ADMIN = 'admin-token-for-tests-0123456789'

/** The app on a memory store, with helpers that speak its HTTP API as a client would. */
export function harness(
  options: {
    store?: ObjectStore
    limits?: Partial<Limits>
    clock?: Clock
    secrets?: DeploymentSecrets
    fetcher?: typeof fetch
    cache?: CacheBudget
    yieldTurn?: () => Promise<void>
  } = {},
) {
  const store = options.store ?? createMemoryStore()
  const app = createApp(
    buildEnv({
      store,
      adminToken: ADMIN,
      hash: sha256Text,
      ...(options.limits ? { limits: options.limits } : {}),
      ...(options.clock ? { clock: options.clock } : {}),
      ...(options.secrets ? { secrets: options.secrets } : {}),
      ...(options.fetcher ? { fetcher: options.fetcher } : {}),
      ...(options.cache ? { cache: options.cache } : {}),
      ...(options.yieldTurn ? { yieldTurn: options.yieldTurn } : {}),
    }),
  )
  const call = (method: string, path: string, token?: string, body?: unknown, headers: Record<string, string> = {}) =>
    app.request(path, {
      method,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
    })
  const register = async (id: string, settings: Record<string, unknown> = {}) => {
    const response = await call('POST', '/v1/clusters', ADMIN, { id, ...settings })
    if (response.status !== 201) throw new Error(`register ${id}: ${response.status} ${await response.text()}`)
    return ((await response.json()) as { token: string }).token
  }
  const events = (id: string, token: string, list: { type: string; object: unknown }[]) => call('POST', `/v1/clusters/${id}/events`, token, { events: list })
  /** What an agent or forwarder is given to reach this app: `seen` is told each URL first (it may throw, as a link that is down). */
  const sourceFor = (cluster: string, token: string, seen?: (url: string) => void) => ({
    source: 'http://hapedge',
    cluster,
    token,
    fetcher: (async (input: string | URL | Request, init?: RequestInit) => {
      seen?.(String(input))
      return app.request(String(input), init)
    }) as typeof fetch,
  })
  return { app, store, call, register, events, sourceFor }
}
