import { SealedValueError } from './errors.ts'

/** A random 96-bit IV per message and a 128-bit tag: AES-GCM as every sealed format here uses it. */
export const IV_BYTES = 12
export const TAG_BYTES = 16

const encoder = new TextEncoder()

/**
 * AES-GCM under a data key, the ciphertext followed by its tag (WebCrypto's form): WebCrypto by
 * default, in every runtime; Node passes node:crypto's (functions/adapters/crypto/node-aes-gcm.ts),
 * whose per-call cost is a fraction of WebCrypto's there, where a resync seals tens of thousands
 * of small bodies. `decrypt` throws when the key, IV or additional data is not the one sealed with.
 */
export interface AesGcm {
  encrypt(key: CryptoKey, iv: Uint8Array, plaintext: Uint8Array, additionalData: Uint8Array): Uint8Array | Promise<Uint8Array>
  decrypt(key: CryptoKey, iv: Uint8Array, ciphertext: Uint8Array, additionalData: Uint8Array): Uint8Array | Promise<Uint8Array>
}

/** One of WebCrypto's two AES-GCM operations, as AesGcm takes it. */
const subtleGcm =
  (operation: 'encrypt' | 'decrypt') =>
  async (key: CryptoKey, iv: Uint8Array, data: Uint8Array, additionalData: Uint8Array): Promise<Uint8Array> =>
    new Uint8Array(
      await crypto.subtle[operation](
        { name: 'AES-GCM', iv: iv as Uint8Array<ArrayBuffer>, additionalData: additionalData as Uint8Array<ArrayBuffer> },
        key,
        data as Uint8Array<ArrayBuffer>,
      ),
    )

export const webAesGcm: AesGcm = { encrypt: subtleGcm('encrypt'), decrypt: subtleGcm('decrypt') }

/** IVs drawn per call of getRandomValues: one call costs tens of microseconds in Node, and a resync seals tens of thousands of bodies. */
const IVS_PER_DRAW = 1024
let drawn = new Uint8Array(0)
let nextIv = 0

/** A random IV never handed out before: a copy of the next unused bytes of a batch from the CSPRNG. */
function freshIv(): Uint8Array {
  if (nextIv + IV_BYTES > drawn.length) {
    drawn = crypto.getRandomValues(new Uint8Array(IV_BYTES * IVS_PER_DRAW))
    nextIv = 0
  }
  return drawn.slice(nextIv, (nextIv += IV_BYTES))
}

/** Encrypts under a fresh IV; `context` is the additional authenticated data (not stored: the reader names it again). */
export async function encryptGcm(
  key: CryptoKey,
  plaintext: Uint8Array,
  context: string,
  gcm: AesGcm = webAesGcm,
): Promise<{ iv: Uint8Array; ciphertext: Uint8Array }> {
  const iv = freshIv()
  return { iv, ciphertext: await gcm.encrypt(key, iv, plaintext, encoder.encode(context)) }
}

/** The plaintext, or a SealedValueError saying `why` it may not open (wrong key, another context, altered). */
export async function decryptGcm(
  key: CryptoKey,
  iv: Uint8Array,
  ciphertext: Uint8Array,
  context: string,
  why: string,
  gcm: AesGcm = webAesGcm,
): Promise<Uint8Array> {
  try {
    return await gcm.decrypt(key, iv, ciphertext, encoder.encode(context))
  } catch {
    throw new SealedValueError('authentication', context, why)
  }
}
