import { readElement, TAG } from './der.ts'

/**
 * PEM checks for TLS Secrets. HAProxy refuses to start on a certificate it cannot parse, so a
 * Secret is re-emitted block by block in canonical form (nothing else from it reaches the file),
 * and a block whose DER is not one well-formed ASN.1 SEQUENCE is refused with a reason.
 */

export interface PemBlock {
  label: string
  der: Uint8Array
  /** The block's base64 when it was already canonical (as `encodeBase64(der)` writes it), so it need not be encoded again. */
  base64?: string
  /** The block as it was written, when that is already as encodePemBlock writes it: a Secret's usually is. */
  text?: string
}

const BLOCK = /-----BEGIN ([A-Z0-9 ]{1,40})-----([A-Za-z0-9+/=\s]*?)-----END \1-----/g
const KEY_LABELS = new Set(['PRIVATE KEY', 'RSA PRIVATE KEY', 'EC PRIVATE KEY'])

export type PemResult = { ok: true; pem: string } | { ok: false; reason: string }

/** Builds the file HAProxy loads (certificate chain, then key) from a Secret's `tls.crt` and `tls.key`. */
export function certificatePem(tlsCrtBase64: string, tlsKeyBase64: string): PemResult {
  const pair = readPemPair(tlsCrtBase64, tlsKeyBase64)
  if (!pair.ok) return pair
  return { ok: true, pem: [...pair.certificates, pair.key].map(encodePemBlock).join('') }
}

export type PemPair = { ok: true; certificates: PemBlock[]; key: PemBlock } | { ok: false; reason: string }

/** The blocks HAProxy is given: every CERTIFICATE of `tls.crt` (the leaf first) and the one private key of `tls.key`. */
export function readPemPair(tlsCrtBase64: string, tlsKeyBase64: string): PemPair {
  const crt = decodePemField(tlsCrtBase64, 'tls.crt')
  if (!crt.ok) return crt
  const key = decodePemField(tlsKeyBase64, 'tls.key')
  if (!key.ok) return key
  const certificates = crt.blocks.filter((block) => block.label === 'CERTIFICATE')
  if (certificates.length === 0) return { ok: false, reason: 'tls.crt holds no CERTIFICATE block' }
  const keys = key.blocks.filter((block) => KEY_LABELS.has(block.label))
  if (keys.length !== 1) return { ok: false, reason: `tls.key must hold exactly one unencrypted private key block, found ${keys.length}` }
  return { ok: true, certificates, key: keys[0]! }
}

/** Refuses bytes that are not UTF-8 (`decode` without a stream keeps no state between calls, so one serves every Secret). */
const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true })

const NON_ASCII = /[^\u0000-\u007f]/

function decodePemField(base64: string, field: string): { ok: true; blocks: PemBlock[] } | { ok: false; reason: string } {
  let text: string
  try {
    // PEM is ASCII, which UTF-8 reads byte for byte: the bytes need no decoding past atob's.
    const binary = binaryOf(base64)
    text = NON_ASCII.test(binary) ? STRICT_UTF8.decode(bytesOf(binary)) : binary
  } catch {
    return { ok: false, reason: `${field} is not base64-encoded text` }
  }
  return readPemText(text, field)
}

/** The PEM blocks of a text, each one's DER checked to be one SEQUENCE. */
export function readPemText(text: string, field: string): { ok: true; blocks: PemBlock[] } | { ok: false; reason: string } {
  const blocks: PemBlock[] = []
  for (const [written = '', label = '', body = ''] of text.matchAll(BLOCK)) {
    const base64 = body.replace(/\s+/g, '')
    let der: Uint8Array
    try {
      der = decodeBase64(base64)
    } catch {
      return { ok: false, reason: `${field}: a ${label} block is not valid base64` }
    }
    if (!isDerSequence(der)) return { ok: false, reason: `${field}: a ${label} block is not valid DER` }
    if (!isCanonicalBase64(base64, der.length)) blocks.push({ label, der })
    else blocks.push(isWrapped(body, base64.length) ? { label, der, base64, text: `${written}\n` } : { label, der, base64 })
  }
  if (blocks.length === 0) return { ok: false, reason: `${field} holds no PEM block` }
  return { ok: true, blocks }
}

/** True when `der` is exactly one ASN.1 SEQUENCE whose encoded length matches its size. */
export function isDerSequence(der: Uint8Array): boolean {
  try {
    return der[0] === TAG.sequence && readElement(der).encoded.length === der.length
  } catch {
    return false
  }
}

const BASE64_DIGITS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'

/**
 * Whether base64 that decoded to `byteLength` bytes is what `encodeBase64` gives for them: padded
 * to a multiple of 4 (the length then fixes the padding) and with zero bits after the last byte.
 */
export function isCanonicalBase64(base64: string, byteLength: number): boolean {
  if (base64.length !== Math.ceil(byteLength / 3) * 4) return false
  const rest = byteLength % 3
  if (rest === 0) return true
  const last = BASE64_DIGITS.indexOf(base64[base64.length - (rest === 1 ? 3 : 2)]!)
  return (last & (rest === 1 ? 0b1111 : 0b11)) === 0
}

/**
 * Whether a block's body (between its BEGIN and END lines) is its base64 of `length` digits as
 * encodePemBlock wraps it: a newline, lines of 64 digits, a newline. Only the newlines need
 * looking at, since the body is that base64 with whitespace added: when the body is exactly the
 * newlines longer, it holds no other whitespace.
 */
function isWrapped(body: string, length: number): boolean {
  const lines = Math.ceil(length / PEM_LINE)
  if (body.length !== length + lines + 1 || body[0] !== '\n') return false
  for (let line = 1; line <= lines; line++) if (body[Math.min(line * (PEM_LINE + 1), body.length - 1)] !== '\n') return false
  return true
}

const PEM_LINE = 64

function encodePemBlock({ label, der, base64: canonical, text }: PemBlock): string {
  if (text !== undefined) return text
  const base64 = canonical ?? encodeBase64(der)
  const lines = base64.match(/.{1,64}/g) ?? []
  return `-----BEGIN ${label}-----\n${lines.join('\n')}\n-----END ${label}-----\n`
}

export function decodeBase64(base64: string): Uint8Array {
  return bytesOf(binaryOf(base64))
}

/** The binary string (one code unit a byte) base64 encodes, its line breaks ignored. */
function binaryOf(base64: string): string {
  return atob(base64.replace(/[\r\n]/g, ''))
}

/** The bytes of a binary string (one code unit a byte, as atob gives). */
function bytesOf(binary: string): Uint8Array {
  const bytes = new Uint8Array(binary.length)
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i)
  return bytes
}

export function encodeBase64(bytes: Uint8Array): string {
  let binary = ''
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000))
  return btoa(binary)
}

/** A CA bundle HAProxy verifies servers with: every CERTIFICATE block of the field, re-emitted (nothing else of the Secret reaches the file). */
export function caBundlePem(base64: string, field: string): PemResult {
  const read = decodePemField(base64, field)
  if (!read.ok) return read
  const certificates = read.blocks.filter((block) => block.label === 'CERTIFICATE')
  if (certificates.length === 0) return { ok: false, reason: `${field} holds no CERTIFICATE block` }
  return { ok: true, pem: certificates.map(encodePemBlock).join('') }
}
