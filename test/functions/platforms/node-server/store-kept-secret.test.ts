import { describe, expect, it } from 'vitest'
import type { ObjectStore } from '../../../../core/ports/object-store.ts'
import { createMemoryStore } from '../../../../functions/adapters/storage/memory-store.ts'
import { adminToken } from '../../../../functions/platforms/node-server/admin-token.ts'
import { nodeDeploymentSecrets } from '../../../../functions/platforms/node-server/deployment-secret.ts'
import { DEPLOYMENT_PREFIX, storeSecrets } from '../../../../functions/platforms/node-server/secret-keepers.ts'
import { storeKeptSecret } from '../../../../functions/platforms/node-server/store-kept-secret.ts'

const LOCATION = 's3://hapedge/team-a/'

/** A store whose every call first waits a random few milliseconds, so that starts at once interleave as replicas' requests do. */
function jittery(store: ObjectStore): ObjectStore {
  const pause = () => new Promise((resolve) => setTimeout(resolve, Math.random() * 4))
  return {
    get: async (key) => (await pause(), store.get(key)),
    head: async (key) => (await pause(), store.head(key)),
    put: async (key, body, condition) => (await pause(), store.put(key, body, condition)),
    list: (prefix) => store.list(prefix),
    delete: async (keys) => (await pause(), store.delete(keys)),
  }
}

describe('secrets kept in the store of hapedge serve --store', () => {
  it('are one admin token and one deployment secret for replicas starting at once on an empty store, made by one of them', async () => {
    for (let round = 0; round < 20; round++) {
      const store = jittery(createMemoryStore())
      const starts = await Promise.all(
        [1, 2, 3].map(async () => {
          const keeper = storeSecrets(store, LOCATION)
          return { admin: await adminToken(keeper, {}), sealing: await nodeDeploymentSecrets(keeper, { create: true }, {}) }
        }),
      )
      expect(new Set(starts.map(({ admin }) => admin.token)).size).toBe(1)
      expect(new Set(starts.map(({ sealing }) => sealing!.secrets.current)).size).toBe(1)
      const where = `${LOCATION}${DEPLOYMENT_PREFIX}admin-token`
      expect(starts.map(({ admin }) => admin.source).sort()).toEqual([where, where, `${where} (new)`])
      const stored = await store.get(`${DEPLOYMENT_PREFIX}deployment-secret`)
      expect(new TextDecoder().decode(stored!.body).trim()).toBe(starts[0]!.sealing!.secrets.current)
    }
  })

  it('are taken from the environment when it sets them, and nothing is written', async () => {
    const store = createMemoryStore()
    const keeper = storeSecrets(store, LOCATION)
    const environment = { HAPEDGE_ADMIN_TOKEN: 'an-admin-token-from-the-environment', HAPEDGE_SECRET: 'a-secret-from-the-environment' }
    expect(await adminToken(keeper, environment)).toEqual({ token: environment.HAPEDGE_ADMIN_TOKEN, source: 'HAPEDGE_ADMIN_TOKEN' })
    expect(await nodeDeploymentSecrets(keeper, { create: true }, environment)).toEqual({
      secrets: { current: environment.HAPEDGE_SECRET },
      source: 'HAPEDGE_SECRET',
    })
    const keys = []
    for await (const object of store.list('')) keys.push(object.key)
    expect(keys).toEqual([])
  })

  it('refuses an empty object, naming where it is, instead of taking it as the secret', async () => {
    const store = createMemoryStore()
    await store.put(`${DEPLOYMENT_PREFIX}admin-token`, '\n')
    await expect(adminToken(storeSecrets(store, LOCATION), {})).rejects.toThrow(`${LOCATION}${DEPLOYMENT_PREFIX}admin-token is empty`)
  })

  it('is not made when none may be: gc reads the secret, it never makes one', async () => {
    const store = createMemoryStore()
    expect(await storeKeptSecret(store, 'registry/deployment/deployment-secret', 'there')).toBeUndefined()
    expect(await store.head('registry/deployment/deployment-secret')).toBeUndefined()
  })
})
