import fc from 'fast-check'
import { describe, expect, it, vi } from 'vitest'
import { decodeBase64url, encodeBase64url } from '../../../core/crypto/base64url.ts'
import { SealedValueError } from '../../../core/crypto/errors.ts'
import { isSealed, open, openBytes, seal } from '../../../core/crypto/seal.ts'
import { sha256Hex } from '../../../core/hash.ts'
import { rejection } from '../../support/rejection.ts'

const newKey = () => crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt'])
const CONTEXT = 'cluster/prod-eu/secret/web/tls'

const failure = (promise: Promise<unknown>) => rejection(promise, SealedValueError)

/** The sealed value with one bit of its decoded bytes flipped: in the IV (part 1) or the ciphertext and tag (part 2). */
function flipBit(sealed: string, part: 1 | 2, byteIndex: number): string {
  const parts = sealed.split('.')
  const bytes = decodeBase64url(parts[part]!)!
  bytes[byteIndex < 0 ? bytes.length + byteIndex : byteIndex]! ^= 0x01
  parts[part] = encodeBase64url(bytes)
  return parts.join('.')
}

describe('sealing a value with AES-GCM', () => {
  it('opens strings as they were sealed, including empty, non-ASCII and a leading byte-order mark', async () => {
    const key = await newKey()
    for (const text of ['', 'token-abc', '-----BEGIN PRIVATE KEY-----\nMIIE\n-----END PRIVATE KEY-----\n', 'ümlaut 🔑', '\uFEFFbom']) {
      const sealed = await seal(key, text, CONTEXT)
      expect(isSealed(sealed)).toBe(true)
      expect(await open(key, sealed, CONTEXT)).toBe(text)
    }
  })

  it('opens bytes as they were sealed, empty and 1 MiB', async () => {
    const key = await newKey()
    const large = new Uint8Array(1 << 20)
    for (let offset = 0; offset < large.length; offset += 65536) crypto.getRandomValues(large.subarray(offset, offset + 65536))
    for (const bytes of [new Uint8Array(0), Uint8Array.of(0, 255, 128), large]) {
      const sealed = await seal(key, bytes, CONTEXT)
      // Compared by hash: a deep equality over a million elements takes seconds.
      expect(await sha256Hex(await openBytes(key, sealed, CONTEXT))).toBe(await sha256Hex(bytes))
    }
  })

  it('has the format hps1.<96-bit iv>.<ciphertext and 128-bit tag>, and never shows the plaintext', async () => {
    const sealed = await seal(await newKey(), 'hunter2-hunter2', CONTEXT)
    const [version, iv, ciphertext] = sealed.split('.')
    expect(version).toBe('hps1')
    expect(decodeBase64url(iv!)).toHaveLength(12)
    expect(decodeBase64url(ciphertext!)).toHaveLength('hunter2-hunter2'.length + 16)
    expect(sealed).not.toContain('hunter2')
  })

  it('refuses to open under another context: a value moved to another cluster or field', async () => {
    const key = await newKey()
    const sealed = await seal(key, 'credentials', 'cluster/prod-eu/credentials')
    for (const other of ['cluster/prod-us/credentials', 'cluster/prod-eu/secret/web/tls', 'cluster/prod-eu/credentials ']) {
      const error = await failure(open(key, sealed, other))
      expect(error.failure).toBe('authentication')
      expect(error.message).toContain(JSON.stringify(other))
    }
  })

  it('refuses to open under another key', async () => {
    const sealed = await seal(await newKey(), 'credentials', CONTEXT)
    expect((await failure(open(await newKey(), sealed, CONTEXT))).failure).toBe('authentication')
  })

  it('refuses a value with any one bit flipped in its IV, ciphertext or tag, and says so without the plaintext', async () => {
    const key = await newKey()
    const sealed = await seal(key, 'the private key', CONTEXT)
    for (const [part, index] of [
      [1, 0],
      [1, -1],
      [2, 0],
      [2, 5],
      [2, -16],
      [2, -1],
    ] as const) {
      const error = await failure(open(key, flipBit(sealed, part, index), CONTEXT))
      expect(error.failure).toBe('authentication')
      expect(error.message).toMatch(/wrong key, sealed for another context, or altered/)
      expect(error.message).not.toContain('the private key')
    }
  })

  it('refuses truncated and malformed values as not sealed values', async () => {
    const key = await newKey()
    const sealed = await seal(key, 'the private key', CONTEXT)
    const [, iv, ciphertext] = sealed.split('.')
    const tagOnly = encodeBase64url(decodeBase64url(ciphertext!)!.subarray(-16))
    const shortTag = encodeBase64url(decodeBase64url(ciphertext!)!.subarray(0, 15))
    expect((await failure(open(key, `hps1.${iv}.${tagOnly}`, CONTEXT))).failure).toBe('authentication')
    expect((await failure(open(key, sealed.slice(0, -4), CONTEXT))).failure).toBe('authentication')
    expect((await failure(open(key, `hps1.${iv}.${shortTag}`, CONTEXT))).message).toMatch(/truncated/)
    for (const malformed of [
      '',
      'plain text',
      `hps2.${iv}.${ciphertext}`,
      `hps1.${iv}`,
      `hps1.${iv!.slice(1)}.${ciphertext}`,
      `hps1.${iv}.${ciphertext}=`,
      `hps1.${iv}.${ciphertext}.x`,
    ]) {
      const error = await failure(open(key, malformed, CONTEXT))
      expect(error.failure).toBe('format')
      expect(isSealed(malformed)).toBe(false)
    }
  })

  it('says when sealed bytes are not text, and asks for a context', async () => {
    const key = await newKey()
    const sealed = await seal(key, Uint8Array.of(0xff, 0xfe, 0x00), CONTEXT)
    expect((await failure(open(key, sealed, CONTEXT))).failure).toBe('not-text')
    await expect(seal(key, 'x', '')).rejects.toThrow(/needs a context/)
    await expect(open(key, sealed, '')).rejects.toThrow(/needs a context/)
  })

  it('draws a new IV for every message: none repeats across 10,000 seals of the same plaintext', async () => {
    const key = await newKey()
    const ivs = new Set<string>()
    for (let batch = 0; batch < 100; batch++) {
      const sealed = await Promise.all(Array.from({ length: 100 }, () => seal(key, 'same', CONTEXT)))
      for (const value of sealed) ivs.add(value.split('.')[1]!)
    }
    expect(ivs.size).toBe(10_000)
  })

  it('draws IVs from the random source in batches, not a call per message (a call costs tens of microseconds in Node)', async () => {
    const key = await newKey()
    const draws = vi.spyOn(crypto, 'getRandomValues')
    try {
      await Promise.all(Array.from({ length: 2048 }, () => seal(key, 'same', CONTEXT)))
      expect(draws.mock.calls.length).toBeLessThanOrEqual(3)
    } finally {
      draws.mockRestore()
    }
  })

  it('round-trips any text and any bytes under any context', async () => {
    const key = await newKey()
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'grapheme', maxLength: 200 }), fc.string({ minLength: 1, maxLength: 80 }), async (text, context) => {
        expect(await open(key, await seal(key, text, context), context)).toBe(text)
      }),
    )
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 2048 }), fc.string({ minLength: 1 }), async (bytes, context) => {
        expect(await openBytes(key, await seal(key, bytes, context), context)).toEqual(bytes)
      }),
    )
  })
})
