import { decodeBase64, encodeBase64 } from '../tls/pem.ts'

const BASE64URL = /^[A-Za-z0-9_-]*$/

/** Unpadded base64url (RFC 4648 §5): safe in storage keys, JSON and dotted formats. */
export function encodeBase64url(bytes: Uint8Array): string {
  return encodeBase64(bytes).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '')
}

/** The bytes of unpadded base64url text, or undefined when the text is not that. */
export function decodeBase64url(text: string): Uint8Array<ArrayBuffer> | undefined {
  if (!BASE64URL.test(text) || text.length % 4 === 1) return undefined
  return decodeBase64(text.replaceAll('-', '+').replaceAll('_', '/')) as Uint8Array<ArrayBuffer>
}
