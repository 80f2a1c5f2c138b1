import { sha256 } from '@noble/hashes/sha2.js'
import { bytesToHex } from '@noble/hashes/utils.js'

const encoder = new TextEncoder()

export function toBytes(content: string | Uint8Array): Uint8Array {
  return typeof content === 'string' ? encoder.encode(content) : content
}

/** Lowercase hex SHA-256, through WebCrypto so it runs in every runtime. */
export async function sha256Hex(content: string | Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', toBytes(content) as Uint8Array<ArrayBuffer>))
  let hex = ''
  for (const byte of digest) hex += byte.toString(16).padStart(2, '0')
  return hex
}

/** A synchronous SHA-256 of text (lowercase hex): what content-addressed tree nodes are named by. */
export type HashText = (text: string) => string

/** The portable synchronous SHA-256 (pure JS); Node passes its native one where speed matters. */
export const sha256Text: HashText = (text) => bytesToHex(sha256(encoder.encode(text)))
