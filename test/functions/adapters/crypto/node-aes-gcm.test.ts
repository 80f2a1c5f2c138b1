import { describe, expect, it } from 'vitest'
import { webAesGcm } from '../../../../core/crypto/aes-gcm.ts'
import { isSealedBody, openBody, sealBody } from '../../../../core/crypto/sealed-body.ts'
import { sealingStore } from '../../../../core/sealing/sealing-store.ts'
import { nodeAesGcm } from '../../../../functions/adapters/crypto/node-aes-gcm.ts'
import { createMemoryStore } from '../../../../functions/adapters/storage/memory-store.ts'

const dataKey = () => crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt']) as Promise<CryptoKey>
const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes)
const bytes = (value: string) => new TextEncoder().encode(value)

describe("node:crypto's AES-GCM", () => {
  it('seals and opens what WebCrypto opens and seals, byte for byte the same form, under a key that is not extractable', async () => {
    const key = await dataKey()
    const iv = crypto.getRandomValues(new Uint8Array(12))
    const [plaintext, aad] = [bytes('{"a":1}\n'.repeat(50)), bytes('clusters/prod/nodes/ab')]
    const sealed = nodeAesGcm.encrypt(key, iv, plaintext, aad) as Uint8Array
    expect(sealed).toEqual(await webAesGcm.encrypt(key, iv, plaintext, aad))
    expect(await webAesGcm.decrypt(key, iv, sealed, aad)).toEqual(plaintext)
    expect(nodeAesGcm.decrypt(key, iv, sealed, aad)).toEqual(plaintext)
    for (const empty of [new Uint8Array(0)]) expect(nodeAesGcm.decrypt(key, iv, nodeAesGcm.encrypt(key, iv, empty, aad) as Uint8Array, aad)).toEqual(empty)

    const body = await sealBody(key, plaintext, 'clusters/prod/nodes/ab', nodeAesGcm)
    expect(text(await openBody(key, body, 'clusters/prod/nodes/ab'))).toBe(text(plaintext))
    expect(text(await openBody(key, await sealBody(key, plaintext, 'clusters/prod/nodes/ab'), 'clusters/prod/nodes/ab', nodeAesGcm))).toBe(text(plaintext))
  })

  it('refuses a body under another key, another context, or altered, as WebCrypto does', async () => {
    const key = await dataKey()
    const body = await sealBody(key, bytes('tls.key'), 'clusters/prod/blobs/cd', nodeAesGcm)
    const altered = body.slice()
    altered[altered.length - 1]! ^= 1
    for (const [opensWith, context, what] of [
      [await dataKey(), 'clusters/prod/blobs/cd', body],
      [key, 'clusters/other/blobs/cd', body],
      [key, 'clusters/prod/blobs/cd', altered],
      [key, 'clusters/prod/blobs/cd', body.subarray(0, body.length - 20)],
    ] as const)
      await expect(openBody(opensWith, what, context, nodeAesGcm)).rejects.toThrow(/wrong key|truncated|shorter/)
  })

  it('serves a sealing store: what it stores is sealed, and reads back through either AES-GCM', async () => {
    const key = await dataKey()
    const raw = createMemoryStore()
    const viaNode = sealingStore(raw, async () => key, nodeAesGcm)
    await viaNode.put('clusters/prod/nodes/ef', 'a node')
    expect(isSealedBody((await raw.get('clusters/prod/nodes/ef'))!.body)).toBe(true)
    expect(text((await sealingStore(raw, async () => key).get('clusters/prod/nodes/ef'))!.body)).toBe('a node')
    expect(text((await viaNode.get('clusters/prod/nodes/ef'))!.body)).toBe('a node')
  })
})
