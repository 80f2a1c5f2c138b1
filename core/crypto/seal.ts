import { decryptGcm, encryptGcm, IV_BYTES, TAG_BYTES } from './aes-gcm.ts'
import { decodeBase64url, encodeBase64url } from './base64url.ts'
import { SealedValueError } from './errors.ts'

/**
 * A sealed value: `hps1.<iv>.<ciphertext and tag>`, both base64url, from AES-GCM with a random
 * 96-bit IV per message and a 128-bit tag. The caller's `context` (e.g.
 * `cluster/<id>/secret/<ns>/<name>`) is the additional authenticated data: it is not stored,
 * and a value moved to another cluster or field does not open there.
 */
export const SEALED_VALUE = /^hps1\.([A-Za-z0-9_-]{16})\.([A-Za-z0-9_-]+)$/

const encoder = new TextEncoder()
// ignoreBOM keeps a leading U+FEFF, so text opens exactly as it was sealed.
const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true })

export function isSealed(value: unknown): value is string {
  return typeof value === 'string' && SEALED_VALUE.test(value)
}

export async function seal(key: CryptoKey, plaintext: string | Uint8Array, context: string): Promise<string> {
  checkContext(context)
  const { iv, ciphertext } = await encryptGcm(key, typeof plaintext === 'string' ? encoder.encode(plaintext) : plaintext, context)
  return `hps1.${encodeBase64url(iv)}.${encodeBase64url(ciphertext)}`
}

/** The plaintext bytes of a sealed value; a SealedValueError when it is malformed, or the key or context is not the one it was sealed with. */
export async function openBytes(key: CryptoKey, sealed: string, context: string): Promise<Uint8Array> {
  checkContext(context)
  const match = typeof sealed === 'string' ? SEALED_VALUE.exec(sealed) : null
  const iv = match && decodeBase64url(match[1]!)
  const ciphertext = match && decodeBase64url(match[2]!)
  if (!iv || !ciphertext || iv.length !== IV_BYTES) throw new SealedValueError('format', context, 'not a sealed value (hps1.<iv>.<ciphertext>)')
  if (ciphertext.length < TAG_BYTES) throw new SealedValueError('format', context, `the ciphertext is shorter than its ${TAG_BYTES}-byte tag: truncated`)
  return decryptGcm(key, iv, ciphertext, context, 'wrong key, sealed for another context, or altered since it was sealed')
}

/** The plaintext of a sealed value as UTF-8 text (what `seal` was given as a string). */
export async function open(key: CryptoKey, sealed: string, context: string): Promise<string> {
  const bytes = await openBytes(key, sealed, context)
  try {
    return decoder.decode(bytes)
  } catch {
    throw new SealedValueError('not-text', context, 'it opened, but holds bytes that are not UTF-8 text: open it with openBytes')
  }
}

function checkContext(context: string): void {
  if (typeof context !== 'string' || context.length === 0)
    throw new TypeError('a sealed value needs a context naming what it is, e.g. cluster/<id>/credentials')
}
