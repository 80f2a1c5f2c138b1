import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { certificatePem, decodeBase64, encodeBase64, isCanonicalBase64 } from '../../../core/tls/pem.ts'
import { base64 } from './tls-fixtures.ts'
import { runs } from '../../support/property-runs.ts'

const DIGITS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'

/** What a writer may send for some bytes: the canonical base64, without its padding, or with its last digit changed. */
const written = fc
  .tuple(fc.uint8Array({ minLength: 1, maxLength: 40 }), fc.constantFrom('canonical', 'unpadded', 'last digit'), fc.integer({ min: 0, max: 63 }))
  .map(([bytes, form, digit]) => {
    const canonical = encodeBase64(bytes)
    if (form === 'unpadded') return canonical.replace(/=+$/, '')
    const data = canonical.replace(/=+$/, '')
    return data.slice(0, -1) + DIGITS[digit] + canonical.slice(data.length)
  })

/** A DER SEQUENCE of `length` content bytes, which is all a block must be to be served. */
const sequence = (length: number) => Uint8Array.from([0x30, length, ...Array.from({ length }, (_, i) => (i * 37 + 11) % 256)])

/** A DER SEQUENCE of any number of content bytes (up to 65,535), its length in the short or long form. */
const longSequence = (length: number) =>
  Uint8Array.from([0x30, ...(length < 0x80 ? [length] : [0x82, length >> 8, length & 0xff]), ...Array.from({ length }, (_, i) => (i * 37 + 11) % 256)])

/** A PEM block whose base64 is written as given, in lines of `width` each ended by `newline`. */
const block = (label: string, text: string, width: number, newline = '\n') =>
  `-----BEGIN ${label}-----${newline}${text.match(new RegExp(`.{1,${width}}`, 'g'))!.join(newline)}${newline}-----END ${label}-----\n`

describe('PEM blocks', () => {
  it('are known canonical exactly when encoding their bytes again gives the same base64', () => {
    fc.assert(
      fc.property(written, (text) => {
        const bytes = decodeBase64(text)
        expect(isCanonicalBase64(text, bytes.length)).toBe(encodeBase64(bytes) === text)
      }),
      { numRuns: runs(2000) },
    )
  })

  it('are served in canonical form whatever the padding, trailing bits and line width they are written with', () => {
    // Content lengths 30, 31 and 32 leave 2, 0 and 1 bytes over a multiple of 3: both paddings and none.
    for (const length of [30, 31, 32]) {
      const certificate = sequence(length)
      const key = sequence(length + 1)
      const canonical = certificatePem(base64(block('CERTIFICATE', encodeBase64(certificate), 64)), base64(block('PRIVATE KEY', encodeBase64(key), 64)))
      expect(canonical.ok).toBe(true)
      const data = (bytes: Uint8Array) => encodeBase64(bytes).replace(/=+$/, '')
      const stray = (bytes: Uint8Array) => {
        const text = data(bytes)
        // The last digit with its unused low bits set (when a byte count leaves some): the same bytes, not as an encoder writes them.
        const unused = [0, 0b1111, 0b11][bytes.length % 3]!
        return text.slice(0, -1) + DIGITS[DIGITS.indexOf(text.at(-1)!) | unused] + encodeBase64(bytes).slice(text.length)
      }
      for (const write of [data, stray]) {
        const served = certificatePem(base64(block('CERTIFICATE', write(certificate), 76)), base64(block('PRIVATE KEY', write(key), 20)))
        expect(served).toEqual(canonical)
      }
    }
  })

  it('are served exactly as written when written as served (lines of 64, each ended by a newline), and rewrapped otherwise', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 700 }),
        fc.constantFrom(16, 63, 64, 65, 76),
        fc.constantFrom('\n', '\r\n', ' \n', '\n\n'),
        (length, width, newline) => {
          const certificate = encodeBase64(longSequence(length))
          const key = encodeBase64(longSequence(length + 1))
          const served = `${block('CERTIFICATE', certificate, 64)}${block('PRIVATE KEY', key, 64)}`
          const written = certificatePem(base64(block('CERTIFICATE', certificate, width, newline)), base64(block('PRIVATE KEY', key, width, newline)))
          expect(written).toEqual({ ok: true, pem: served })
        },
      ),
      { numRuns: runs(500) },
    )
  })
})
