import { decryptGcm, encryptGcm, IV_BYTES, TAG_BYTES, type AesGcm } from './aes-gcm.ts'
import { SealedValueError } from './errors.ts'

/**
 * A sealed object body: `\0hapedge-sealed-v1\0`, a random 96-bit IV, then the AES-GCM
 * ciphertext and its 128-bit tag. Stored text (JSON nodes, HAProxy files, PEM) never starts
 * with a NUL byte, so a body tells by its first bytes whether it is sealed, and objects stored
 * before sealing still read. The caller's `context` (the object's storage key) is the
 * additional authenticated data: a body moved to another key or cluster does not open.
 */
const encoder = new TextEncoder()
const MAGIC = encoder.encode('\0hapedge-sealed-v1\0')

/** What sealing adds to a body's length. */
export const SEALED_BODY_OVERHEAD = MAGIC.length + IV_BYTES + TAG_BYTES

export function isSealedBody(body: Uint8Array): boolean {
  if (body.length < MAGIC.length) return false
  for (let i = 0; i < MAGIC.length; i++) if (body[i] !== MAGIC[i]) return false
  return true
}

export async function sealBody(key: CryptoKey, plaintext: Uint8Array, context: string, gcm?: AesGcm): Promise<Uint8Array> {
  const { iv, ciphertext } = await encryptGcm(key, plaintext, context, gcm)
  const sealed = new Uint8Array(MAGIC.length + IV_BYTES + ciphertext.length)
  sealed.set(MAGIC)
  sealed.set(iv, MAGIC.length)
  sealed.set(ciphertext, MAGIC.length + IV_BYTES)
  return sealed
}

/** The plaintext of a sealed body; a SealedValueError when it is truncated, or the key or context is not the one it was sealed with. */
export async function openBody(key: CryptoKey, body: Uint8Array, context: string, gcm?: AesGcm): Promise<Uint8Array> {
  if (!isSealedBody(body)) throw new SealedValueError('format', context, 'not a sealed body (no hapedge-sealed-v1 prefix)')
  if (body.length < SEALED_BODY_OVERHEAD)
    throw new SealedValueError('format', context, `${body.length} bytes, shorter than the IV and tag of a sealed body: truncated`)
  const iv = body.subarray(MAGIC.length, MAGIC.length + IV_BYTES)
  return decryptGcm(
    key,
    iv,
    body.subarray(MAGIC.length + IV_BYTES),
    context,
    'wrong key, stored under another key or cluster, or altered since it was sealed',
    gcm,
  )
}
