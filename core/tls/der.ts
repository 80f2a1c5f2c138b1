import { concatBytes } from '@noble/hashes/utils.js'

/**
 * Just enough DER (ASN.1 Distinguished Encoding Rules) to walk a certificate and a private key:
 * read a tag-length-value element, the elements that fill a constructed one, and encode one.
 */

export const TAG = {
  integer: 0x02,
  bitString: 0x03,
  octetString: 0x04,
  null: 0x05,
  oid: 0x06,
  utcTime: 0x17,
  generalizedTime: 0x18,
  sequence: 0x30,
  set: 0x31,
  /** `[0]` and `[1]` EXPLICIT, as certificates and SEC1 keys use them. */
  context0: 0xa0,
  context1: 0xa1,
} as const

/** Why some bytes are not the DER they should be. */
export class DerError extends Error {
  override name = 'DerError'
}

export interface DerElement {
  tag: number
  /** The value, without tag and length. */
  contents: Uint8Array
  /** The whole element, tag and length included. */
  encoded: Uint8Array
}

const CONSTRUCTED = 0x20

/** The element that starts at `offset`. */
export function readElement(bytes: Uint8Array, offset = 0): DerElement {
  const tag = bytes[offset]
  const first = bytes[offset + 1]
  if (tag === undefined || first === undefined) throw new DerError('the data ends inside an element')
  if ((tag & 0x1f) === 0x1f) throw new DerError(`tag 0x${tag.toString(16)} uses the multi-byte form, which neither certificates nor keys use`)
  let length = first
  let start = offset + 2
  if (first >= 0x80) {
    const lengthBytes = first & 0x7f
    if (lengthBytes === 0) throw new DerError('an element has an indefinite length, which DER forbids')
    if (lengthBytes > 4) throw new DerError('an element is longer than 4 GiB')
    if (start + lengthBytes > bytes.length) throw new DerError('the data ends inside an element')
    length = 0
    for (let i = 0; i < lengthBytes; i++) length = length * 256 + bytes[start + i]!
    start += lengthBytes
  }
  const end = start + length
  if (end > bytes.length) throw new DerError(`an element claims ${length} bytes, but only ${bytes.length - start} follow`)
  return { tag, contents: bytes.subarray(start, end), encoded: bytes.subarray(offset, end) }
}

/** The elements that fill `bytes` exactly: a constructed element's contents. */
export function readElements(bytes: Uint8Array): DerElement[] {
  const elements: DerElement[] = []
  for (let offset = 0; offset < bytes.length; ) {
    const element = readElement(bytes, offset)
    elements.push(element)
    offset += element.encoded.length
  }
  return elements
}

/** `bytes` as exactly one element, every constructed element inside it well formed too. */
export function readWhole(bytes: Uint8Array): DerElement {
  const element = readElement(bytes)
  if (element.encoded.length !== bytes.length) throw new DerError(`${bytes.length - element.encoded.length} bytes follow the element`)
  checkNested(element)
  return element
}

function checkNested(element: DerElement): void {
  if (element.tag & CONSTRUCTED) for (const inner of readElements(element.contents)) checkNested(inner)
}

/** Checks an element's tag, naming the field when it is not the one expected. */
export function expectTag(element: DerElement | undefined, tag: number, field: string): DerElement {
  if (!element) throw new DerError(`${field} is missing`)
  if (element.tag !== tag) throw new DerError(`${field} has tag 0x${element.tag.toString(16)}, not 0x${tag.toString(16)}`)
  return element
}

/** `1.2.840.10045.2.1` from an OBJECT IDENTIFIER's contents. */
export function decodeOid(contents: Uint8Array): string {
  if (contents.length === 0) throw new DerError('an OBJECT IDENTIFIER is empty')
  const arcs: number[] = []
  let value = 0
  for (const byte of contents) {
    value = value * 128 + (byte & 0x7f)
    if (byte & 0x80) continue
    if (arcs.length === 0) arcs.push(value < 80 ? Math.floor(value / 40) : 2, value < 80 ? value % 40 : value - 80)
    else arcs.push(value)
    value = 0
  }
  if (contents[contents.length - 1]! & 0x80) throw new DerError('an OBJECT IDENTIFIER ends inside an arc')
  return arcs.join('.')
}

export function encodeOid(oid: string): Uint8Array {
  const [first = 0, second = 0, ...rest] = oid.split('.').map(Number)
  const bytes: number[] = []
  for (const arc of [first * 40 + second, ...rest]) {
    const group = [arc & 0x7f]
    for (let value = Math.floor(arc / 128); value > 0; value = Math.floor(value / 128)) group.unshift((value & 0x7f) | 0x80)
    bytes.push(...group)
  }
  return encodeElement(TAG.oid, Uint8Array.from(bytes))
}

/** One element of `tag` whose value is the concatenation of `parts`. */
export function encodeElement(tag: number, ...parts: Uint8Array[]): Uint8Array {
  const length = parts.reduce((sum, part) => sum + part.length, 0)
  const header = [tag]
  if (length < 0x80) header.push(length)
  else {
    const digits: number[] = []
    for (let value = length; value > 0; value = Math.floor(value / 256)) digits.unshift(value & 0xff)
    header.push(0x80 | digits.length, ...digits)
  }
  return concatBytes(Uint8Array.from(header), ...parts)
}
