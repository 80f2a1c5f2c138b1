import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { sha256Hex } from '../../../../core/hash.ts'
import { nodeSha256 } from '../../../../functions/adapters/hash/node-sha256.ts'

describe('nodeSha256', () => {
  it('gives the digest WebCrypto gives, for any text (UTF-8 included)', async () => {
    expect(nodeSha256('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855')
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'grapheme' }), async (text) => {
        expect(nodeSha256(text)).toBe(await sha256Hex(text))
      }),
    )
  })
})
