import { createCipheriv, createDecipheriv, KeyObject, type CipherGCMTypes } from 'node:crypto'
import { TAG_BYTES, type AesGcm } from '../../../core/crypto/aes-gcm.ts'

/** Each data key's KeyObject, taken from the CryptoKey once (it need not be extractable). */
const keyObjects = new WeakMap<CryptoKey, KeyObject>()

function keyObjectOf(key: CryptoKey): KeyObject {
  let found = keyObjects.get(key)
  if (!found) keyObjects.set(key, (found = KeyObject.from(key)))
  return found
}

const GCM: Record<number, CipherGCMTypes> = { 16: 'aes-128-gcm', 24: 'aes-192-gcm', 32: 'aes-256-gcm' }

function algorithm(key: KeyObject): CipherGCMTypes {
  const name = GCM[key.symmetricKeySize ?? 0]
  if (!name) throw new Error(`not an AES key (${key.symmetricKeySize} bytes)`)
  return name
}

/**
 * node:crypto's AES-GCM, the same bytes as WebCrypto's (ciphertext, then the 128-bit tag): a
 * synchronous call per body, where WebCrypto's job and promise per call cost several times the
 * encryption of a tree node in Node.
 */
export const nodeAesGcm: AesGcm = {
  encrypt(key, iv, plaintext, additionalData) {
    const cipher = createCipheriv(algorithm(keyObjectOf(key)), keyObjectOf(key), iv, { authTagLength: TAG_BYTES })
    cipher.setAAD(additionalData)
    const head = cipher.update(plaintext)
    const tail = cipher.final()
    const tag = cipher.getAuthTag()
    const sealed = new Uint8Array(head.length + tail.length + tag.length)
    sealed.set(head)
    sealed.set(tail, head.length)
    sealed.set(tag, head.length + tail.length)
    return sealed
  },
  decrypt(key, iv, ciphertext, additionalData) {
    if (ciphertext.length < TAG_BYTES) throw new Error(`${ciphertext.length} bytes, shorter than the tag`)
    const decipher = createDecipheriv(algorithm(keyObjectOf(key)), keyObjectOf(key), iv, { authTagLength: TAG_BYTES })
    decipher.setAuthTag(ciphertext.subarray(ciphertext.length - TAG_BYTES))
    decipher.setAAD(additionalData)
    const head = decipher.update(ciphertext.subarray(0, ciphertext.length - TAG_BYTES))
    const tail = decipher.final()
    return tail.length === 0 ? new Uint8Array(head.buffer, head.byteOffset, head.length) : new Uint8Array(Buffer.concat([head, tail]))
  },
}
