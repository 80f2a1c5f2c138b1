import { decodeOid, DerError, expectTag, readElements, TAG, type DerElement } from './der.ts'

/** The key types a TLS Secret may hold: those WebCrypto imports everywhere hapedge runs, and HAProxy serves. */
export type KeyAlgorithm = { type: 'RSA' } | { type: 'EC'; curve: Curve } | { type: 'Ed25519' }
type Curve = 'P-256' | 'P-384' | 'P-521'

export const OID = {
  rsaEncryption: '1.2.840.113549.1.1.1',
  ecPublicKey: '1.2.840.10045.2.1',
  ed25519: '1.3.101.112',
} as const

const CURVES: Record<string, Curve> = { '1.2.840.10045.3.1.7': 'P-256', '1.3.132.0.34': 'P-384', '1.3.132.0.35': 'P-521' }

/** Names for the key types people meet that are not supported, so the reason says what was found. */
const UNSUPPORTED: Record<string, string> = {
  '1.2.840.10040.4.1': 'DSA',
  '1.2.840.113549.1.1.10': 'RSASSA-PSS',
  '1.3.101.113': 'Ed448',
  '1.2.643.7.1.1.1.1': 'GOST R 34.10-2012',
  '1.2.156.10197.1.301': 'SM2',
}

/** Thrown for a well-formed key of a type hapedge does not serve. */
export class UnsupportedKey extends DerError {
  override name = 'UnsupportedKey'
}

/** An AlgorithmIdentifier as the key it describes: `SEQUENCE { algorithm OID, parameters ANY OPTIONAL }`. */
export function keyAlgorithmOf(algorithmIdentifier: DerElement | undefined, field: string): KeyAlgorithm {
  const [oid, parameters] = readElements(expectTag(algorithmIdentifier, TAG.sequence, field).contents)
  const algorithm = decodeOid(expectTag(oid, TAG.oid, `${field}'s algorithm`).contents)
  if (algorithm === OID.rsaEncryption) return { type: 'RSA' }
  if (algorithm === OID.ed25519) return { type: 'Ed25519' }
  if (algorithm === OID.ecPublicKey) return { type: 'EC', curve: curveOf(expectTag(parameters, TAG.oid, `${field}'s named curve`)) }
  throw new UnsupportedKey(`the key type ${UNSUPPORTED[algorithm] ?? algorithm} is not supported (RSA, EC P-256, P-384 or P-521, or Ed25519 are)`)
}

/** A named curve's OBJECT IDENTIFIER as WebCrypto names the curve. */
export function curveOf(oid: DerElement): Curve {
  const name = decodeOid(oid.contents)
  const curve = CURVES[name]
  if (!curve) throw new UnsupportedKey(`the EC curve ${name} is not supported (P-256, P-384 and P-521 are)`)
  return curve
}

export function describeKeyAlgorithm(key: KeyAlgorithm): string {
  return key.type === 'EC' ? `an EC ${key.curve} key` : `an ${key.type} key`
}

export function sameKeyAlgorithm(a: KeyAlgorithm, b: KeyAlgorithm): boolean {
  return describeKeyAlgorithm(a) === describeKeyAlgorithm(b)
}

/** How WebCrypto imports such a key (the hash is any: only the key's public part is compared). */
export function importParams(key: KeyAlgorithm): RsaHashedImportParams | EcKeyImportParams | Algorithm {
  if (key.type === 'RSA') return { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' }
  if (key.type === 'EC') return { name: 'ECDSA', namedCurve: key.curve }
  return { name: 'Ed25519' }
}

/** The JWK members that make up a key's public part: equal for a private key and the certificate it belongs to. */
export function publicMembers(key: KeyAlgorithm): readonly (keyof JsonWebKey)[] {
  if (key.type === 'RSA') return ['n', 'e']
  if (key.type === 'EC') return ['crv', 'x', 'y']
  return ['crv', 'x']
}
