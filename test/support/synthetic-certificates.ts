import { encodeElement, encodeOid, TAG } from '../../core/tls/der.ts'
import { encodeBase64 } from '../../core/tls/pem.ts'

/** A Name's attributes in order, each `[oid, value]` (a UTF8String), one per RelativeDistinguishedName. */
export type NameAttributes = readonly (readonly [string, string])[]

const UTF8_STRING = 0x0c
const encoder = new TextEncoder()

export function encodeName(attributes: NameAttributes): Uint8Array {
  return encodeElement(
    TAG.sequence,
    ...attributes.map(([oid, value]) => encodeElement(TAG.set, encodeElement(TAG.sequence, encodeOid(oid), encodeElement(UTF8_STRING, encoder.encode(value))))),
  )
}

/**
 * A certificate of the shape X.509 gives (core/tls/x509.ts walks it) with these names, and no
 * valid signature or key: for code that reads names only, never for HAProxy.
 */
export function syntheticCertificatePem(subject: NameAttributes, issuer: NameAttributes = subject): string {
  const algorithm = encodeElement(TAG.sequence, encodeOid('1.2.840.10045.4.3.2'))
  const time = encodeElement(TAG.utcTime, encoder.encode('260101000000Z'))
  const tbs = encodeElement(
    TAG.sequence,
    encodeElement(TAG.context0, encodeElement(TAG.integer, Uint8Array.of(2))),
    encodeElement(TAG.integer, Uint8Array.of(1)),
    algorithm,
    encodeName(issuer),
    encodeElement(TAG.sequence, time, time),
    encodeName(subject),
    encodeElement(TAG.sequence, encodeElement(TAG.sequence, encodeOid('1.2.840.10045.2.1')), encodeElement(TAG.bitString, Uint8Array.of(0, 4))),
  )
  const der = encodeElement(TAG.sequence, tbs, algorithm, encodeElement(TAG.bitString, Uint8Array.of(0)))
  return `-----BEGIN CERTIFICATE-----\n${encodeBase64(der)
    .match(/.{1,64}/g)!
    .join('\n')}\n-----END CERTIFICATE-----\n`
}
