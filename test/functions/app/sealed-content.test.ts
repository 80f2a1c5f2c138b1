import { describe, expect, it } from 'vitest'
import { readGeneration } from '../../../core/reading/read-generation.ts'
import { sha256Text } from '../../../core/hash.ts'
import type { ObjectStore } from '../../../core/ports/object-store.ts'
import { isCompressedBody, nodeText } from '../../../core/tree/node-body.ts'
import { httpSource } from '../../../processes/agent/http-source.ts'
import { createMemoryStore } from '../../../functions/adapters/storage/memory-store.ts'
import { toTlsSecret } from '../../support/certificates.ts'
import { app as objectsOf, coldContext } from '../../support/contracts/cluster-apps.ts'
import { fixtureCertificate } from '../../support/fixtures.ts'
import { ingress } from '../../support/objects.ts'
import { harness } from './app-harness.ts'

const SECRET = 'deployment-secret-for-the-sealed-content-tests-0123'
const shop = fixtureCertificate('shop.example.com')
const secret = toTlsSecret({ namespace: 'default', name: 'shop-tls', ...shop })
const objects = [
  ...objectsOf(1),
  ingress({
    name: 'shop',
    rules: [{ host: 'shop.example.com', paths: [{ service: 'app-1' }] }],
    tls: [{ hosts: ['shop.example.com'], secretName: 'shop-tls' }],
  }),
  secret,
]
const keyBase64 = secret.data['tls.key']
/** What would give the key away: a line of its PEM body (also inside JSON, whose escapes keep it whole), and the Secret's base64 of it. */
const giveaways = [
  shop.keyPem
    .split('\n')
    .filter((line) => !line.startsWith('-----'))
    .sort((a, b) => b.length - a.length)[0]!,
  keyBase64,
  keyBase64.slice(20, 60),
]
const put = (object: unknown) => ({ type: 'MODIFIED', object })

async function storedGiveaways(store: ObjectStore): Promise<string[]> {
  const found: string[] = []
  for await (const object of store.list('')) {
    // A gzipped node gives away what its text does; a sealed body is not gzip, and reads as the bytes it is.
    const body = (await store.get(object.key))!.body
    const raw = isCompressedBody(body) ? await nodeText(body) : new TextDecoder().decode(body)
    for (const giveaway of giveaways) if (raw.includes(giveaway)) found.push(object.key)
  }
  return found
}

/** The app on a memory store with a TLS Secret committed through its events route. */
async function committed(options: { secret: boolean }) {
  const store = createMemoryStore()
  const client = harness({ store, ...(options.secret ? { secrets: { current: SECRET } } : {}) })
  const token = await client.register('shop')
  const answer = await client.events('shop', token, objects.map(put))
  expect(answer.status).toBe(200)
  const { manifest } = (await answer.json()) as { manifest: string }
  return { store, client, token, manifest }
}

describe('TLS private keys in object storage', () => {
  it('are in the clear without a deployment secret (what the scan below would find)', async () => {
    const { store } = await committed({ secret: false })
    expect((await storedGiveaways(store)).some((key) => key.includes('/nodes/'))).toBe(true)
    expect((await storedGiveaways(store)).some((key) => key.includes('/blobs/'))).toBe(true)
  })

  it('are in no stored object with one, while agents get the real PEM, each blob hashing to its name', async () => {
    const { store, client, token, manifest } = await committed({ secret: true })
    expect(await storedGiveaways(store)).toEqual([])

    const fetcher = ((url: string, init?: RequestInit) => client.app.request(url, init)) as typeof fetch
    const files = await readGeneration(httpSource('http://hapedge.test', 'shop', token, fetcher), 'shop', manifest, coldContext())
    const pem = [...files.entries()].find(([path]) => path.endsWith('.pem'))
    expect(pem?.[1]).toContain(shop.keyPem.trim().split('\n')[1])

    const delta = (await (await client.call('GET', `/v1/clusters/shop/head?have=${'0'.repeat(64)}`, token)).json()) as { blobs: Record<string, string> }
    expect(Object.keys(delta.blobs).length).toBeGreaterThan(2)
    for (const [sha256, text] of Object.entries(delta.blobs)) expect(sha256Text(text)).toBe(sha256)
    expect(Object.values(delta.blobs).some((text) => text.includes(giveaways[0]!))).toBe(true)
    for (const sha256 of Object.keys(delta.blobs)) {
      const blob = await client.call('GET', `/v1/clusters/shop/blobs/${sha256}`, token)
      expect(blob.status).toBe(200)
      expect(sha256Text(await blob.text())).toBe(sha256)
    }
  })

  it('are sealed for a cluster registered before the deployment had a secret: its record gets a data key, and what it stored in the clear still reads', async () => {
    const store = createMemoryStore()
    const before = harness({ store })
    const token = await before.register('shop')
    expect((await before.events('shop', token, objectsOf(1).map(put))).status).toBe(200)
    const after = harness({ store, secrets: { current: SECRET } })
    const answer = await after.events('shop', token, objects.map(put))
    expect(answer.status).toBe(200)
    expect(JSON.parse(new TextDecoder().decode((await store.get('registry/clusters/shop'))!.body)).dataKey).toMatch(/^hpk1\./)
    expect(await storedGiveaways(store)).toEqual([])
    const { manifest } = (await answer.json()) as { manifest: string }
    const fetcher = ((url: string, init?: RequestInit) => after.app.request(url, init)) as typeof fetch
    const files = await readGeneration(httpSource('http://hapedge.test', 'shop', token, fetcher), 'shop', manifest, coldContext())
    expect([...files.keys()].some((path) => path.endsWith('.pem'))).toBe(true)
  })

  it('answer 500 naming the key when a sealed blob was altered in the bucket', async () => {
    const { store, client, token, manifest } = await committed({ secret: true })
    const key = `clusters/shop/blobs/${manifest}`
    const body = (await store.get(key))!.body
    body[body.length - 1]! ^= 0x80
    await store.put(key, body)
    const answer = await client.call('GET', `/v1/clusters/shop/manifests/${manifest}`, token)
    expect(answer.status).toBe(500)
    expect(((await answer.json()) as { error: { message: string } }).error.message).toContain(`${key}: the sealed body does not open`)
  })
})
