import { SealedValueError } from './errors.ts'

/** A random 96-bit IV per message and a 128-bit tag: AES-GCM as every sealed format here uses it. */
export const IV_BYTES = 12
export const TAG_BYTES = 16

const encoder = new TextEncoder()

/** Encrypts under a fresh IV; `context` is the additional authenticated data (not stored: the reader names it again). */
export async function encryptGcm(key: CryptoKey, plaintext: Uint8Array, context: string): Promise<{ iv: Uint8Array; ciphertext: Uint8Array }> {
  const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES))
  const ciphertext = await crypto.subtle.encrypt({ name: 'AES-GCM', iv, additionalData: encoder.encode(context) }, key, plaintext as Uint8Array<ArrayBuffer>)
  return { iv, ciphertext: new Uint8Array(ciphertext) }
}

/** The plaintext, or a SealedValueError saying `why` it may not open (wrong key, another context, altered). */
export async function decryptGcm(key: CryptoKey, iv: Uint8Array, ciphertext: Uint8Array, context: string, why: string): Promise<Uint8Array> {
  try {
    const plaintext = await crypto.subtle.decrypt(
      { name: 'AES-GCM', iv: iv as Uint8Array<ArrayBuffer>, additionalData: encoder.encode(context) },
      key,
      ciphertext as Uint8Array<ArrayBuffer>,
    )
    return new Uint8Array(plaintext)
  } catch {
    throw new SealedValueError('authentication', context, why)
  }
}
