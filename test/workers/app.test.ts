import { env, SELF } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { readGeneration } from '../../core/reading/read-generation.ts'
import { fullRebuild } from '../../core/render/full-rebuild.ts'
import { createR2Store } from '../../functions/adapters/storage/r2-store.ts'
import { app, coldContext } from '../support/contracts/cluster-apps.ts'
import { ingress } from '../support/objects.ts'

const call = (method: string, path: string, token: string | undefined, body?: unknown) =>
  SELF.fetch(`https://hapedge.example${path}`, {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })

describe('the app in the Workers runtime, on R2', () => {
  const id = `w-${Date.now().toString(36)}`

  it('registers a cluster, commits events to R2 and serves what a full rebuild gives', async () => {
    const registered = await call('POST', '/v1/clusters', env.ADMIN_TOKEN, { id })
    expect(registered.status).toBe(201)
    const { token } = (await registered.json()) as { token: string }
    const hostile = ingress({ name: 'evil', rules: [{ host: 'a.example.com;deny', paths: [{ path: '/', service: 'x' }] }] })
    const objects = [...app(1), ...app(2, ['/', '/api'])]
    const written = await call('POST', `/v1/clusters/${id}/events`, token, { events: [...objects, hostile].map((object) => ({ type: 'ADDED', object })) })
    expect(written.status).toBe(200)
    const result = (await written.json()) as { generation: number; manifest: string; rejected: { object: string }[] }
    expect(result).toMatchObject({ generation: 1, rejected: [{ object: 'Ingress default/evil' }] })

    const head = (await (await call('GET', `/v1/clusters/${id}/head`, token)).json()) as { manifest: string }
    expect(head.manifest).toBe(result.manifest)
    const manifest = await call('GET', `/v1/clusters/${id}/manifests/${head.manifest}`, token)
    expect(manifest.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
    const files = await readGeneration(createR2Store({ bucket: env.STORE }), id, head.manifest, coldContext())
    expect(files).toEqual(fullRebuild([...objects, hostile]).files)
  })

  it('answers bad input, missing and foreign credentials as the Node server does', async () => {
    const other = `${id}-b`
    const { token } = (await (await call('POST', '/v1/clusters', env.ADMIN_TOKEN, { id: other })).json()) as { token: string }
    expect((await call('GET', `/v1/clusters/${id}/head`, undefined)).status).toBe(401)
    expect((await call('GET', `/v1/clusters/${id}/head`, token)).status).toBe(403)
    const bad = await call('POST', `/v1/clusters/${other}/events`, token, { events: [{ type: 'ADDED', object: 'not an object' }] })
    expect(bad.status).toBe(400)
    expect(await bad.json()).toEqual({ error: { message: expect.any(String), path: 'events[0].object' } })
  })
})
