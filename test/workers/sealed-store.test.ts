import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { readGeneration } from '../../core/reading/read-generation.ts'
import { isSealedBody } from '../../core/crypto/sealed-body.ts'
import { fullRebuild } from '../../core/render/full-rebuild.ts'
import { sha256Text } from '../../core/hash.ts'
import { createApp } from '../../functions/app/app.ts'
import { buildEnv } from '../../functions/platforms/composition/build-env.ts'
import { sealedStore } from '../../functions/platforms/composition/sealed-store.ts'
import { createR2Store } from '../../functions/adapters/storage/r2-store.ts'
import { app, coldContext } from '../support/contracts/cluster-apps.ts'

const SECRET = 'deployment-secret-for-the-workers-tests-0123456789'

/** The app as the Worker builds it when HAPEDGE_SECRET is set: AES-KW and AES-GCM through workerd's WebCrypto, on R2. */
describe('sealed cluster content in the Workers runtime, on R2', () => {
  it('stores every node and blob sealed, and reads back what a full rebuild gives', async () => {
    const r2 = createR2Store({ bucket: env.STORE })
    const worker = createApp(buildEnv({ store: r2, adminToken: env.ADMIN_TOKEN, hash: sha256Text, secrets: { current: SECRET } }))
    const call = (method: string, path: string, token: string, body?: unknown) =>
      worker.request(path, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      })
    const id = `sealed-${Date.now().toString(36)}`
    const { token } = (await (await call('POST', '/v1/clusters', env.ADMIN_TOKEN, { id })).json()) as { token: string }
    const objects = [...app(1), ...app(2, ['/', '/api'])]
    const written = await call('POST', `/v1/clusters/${id}/events`, token, { events: objects.map((object) => ({ type: 'ADDED', object })) })
    expect(written.status).toBe(200)
    const { manifest } = (await written.json()) as { manifest: string }

    let content = 0
    for (const space of ['nodes', 'blobs'])
      for await (const object of r2.list(`clusters/${id}/${space}/`)) {
        expect(isSealedBody((await r2.get(object.key))!.body), object.key).toBe(true)
        content++
      }
    expect(content).toBeGreaterThan(3)
    const blob = await call('GET', `/v1/clusters/${id}/blobs/${manifest}`, token)
    expect(sha256Text(await blob.text())).toBe(manifest)
    expect(await readGeneration(sealedStore(r2, { current: SECRET }, sha256Text), id, manifest, coldContext())).toEqual(fullRebuild(objects).files)
  })
})
