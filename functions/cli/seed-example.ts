import { readFile, writeFile } from 'node:fs/promises'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { createApp } from '../app/app.ts'
import { withDefaultNamespace } from './default-namespace.ts'
import { loadObjects } from './load-objects.ts'

const EXAMPLE = fileURLToPath(new URL('../../infra/examples', import.meta.url))

/**
 * `npm start`'s embedded default: a cluster `example` registered once, fed the objects of
 * infra/examples/ through the same HTTP API a forwarder uses, its token kept beside the data.
 */
export async function seedExample(app: ReturnType<typeof createApp>, admin: string, data: string, url: string): Promise<void> {
  const tokenFile = join(data, 'example-token')
  const call = (method: string, path: string, token: string, body?: unknown) =>
    app.request(path, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, ...(body ? { body: JSON.stringify(body) } : {}) })

  let token = await readFile(tokenFile, 'utf8').then((text) => text.trim(), () => undefined)
  if (!token) {
    const registered = await call('POST', '/v1/clusters', admin, { id: 'example', httpBind: '127.0.0.1:8080', httpsBind: '127.0.0.1:8443' })
    if (registered.status !== 201) throw new Error(`registering the example cluster: ${registered.status} ${await registered.text()}`)
    token = ((await registered.json()) as { token: string }).token
    await writeFile(tokenFile, `${token}\n`, { mode: 0o600 })
  }
  const items = (await loadObjects([EXAMPLE])).map(({ object }) => withDefaultNamespace(object, 'default'))
  const synced = await call('PUT', '/v1/clusters/example/objects', token, { apiVersion: 'v1', kind: 'List', items })
  if (synced.status !== 200) throw new Error(`loading the example cluster: ${synced.status} ${await synced.text()}`)
  const result = (await synced.json()) as { generation: number; manifest: string; rejected: unknown[] }
  const near = relative(process.cwd(), tokenFile)
  const shown = near.startsWith('..') ? tokenFile : near
  console.log(`example cluster: ${items.length} objects from ${relative(process.cwd(), EXAMPLE)}, generation ${result.generation}, manifest ${result.manifest}`)
  console.log(`  curl -H "Authorization: Bearer $(cat ${shown})" ${url}/v1/clusters/example/head`)
  console.log(`  curl -H "Authorization: Bearer $(cat ${shown})" ${url}/v1/clusters/example/manifests/${result.manifest}`)
}
