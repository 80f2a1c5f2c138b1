import { DerError, encodeElement, encodeOid, expectTag, readElements, readWhole, TAG } from './der.ts'
import { curveOf, keyAlgorithmOf, OID, type KeyAlgorithm } from './key-algorithm.ts'
import type { PemBlock } from './pem.ts'

/** A private key as WebCrypto imports it: PKCS#8, whatever form the Secret held it in. */
export interface PrivateKey {
  pkcs8: Uint8Array
  algorithm: KeyAlgorithm
}

/**
 * Reads the key block of a Secret's `tls.key`: PKCS#8 (`PRIVATE KEY`), and the two older forms
 * Kubernetes Secrets often hold, PKCS#1 (`RSA PRIVATE KEY`) and SEC1 (`EC PRIVATE KEY`), which
 * are wrapped into PKCS#8. Throws DerError (UnsupportedKey for another key type) saying why.
 */
export function readPrivateKey(block: PemBlock): PrivateKey {
  const key = expectTag(readWhole(block.der), TAG.sequence, `the ${block.label}`)
  const fields = readElements(key.contents)
  if (block.label === 'RSA PRIVATE KEY') {
    if (fields.length < 9 || fields.some((field) => field.tag !== TAG.integer))
      throw new DerError('an RSA PRIVATE KEY is a SEQUENCE of at least 9 INTEGERs (PKCS#1)')
    return { pkcs8: privateKeyInfo(encodeElement(TAG.sequence, encodeOid(OID.rsaEncryption), encodeElement(TAG.null)), block.der), algorithm: { type: 'RSA' } }
  }
  if (block.label === 'EC PRIVATE KEY') {
    expectTag(fields[0], TAG.integer, 'the EC PRIVATE KEY version')
    expectTag(fields[1], TAG.octetString, 'the EC PRIVATE KEY privateKey')
    const parameters = fields.find((field) => field.tag === TAG.context0)
    if (!parameters) throw new DerError('the EC PRIVATE KEY does not name its curve')
    const [curve] = readElements(parameters.contents)
    const curveOid = expectTag(curve, TAG.oid, "the EC PRIVATE KEY's named curve")
    const algorithm: KeyAlgorithm = { type: 'EC', curve: curveOf(curveOid) }
    return { pkcs8: privateKeyInfo(encodeElement(TAG.sequence, encodeOid(OID.ecPublicKey), curveOid.encoded), block.der), algorithm }
  }
  expectTag(fields[0], TAG.integer, 'the PRIVATE KEY version')
  expectTag(fields[2], TAG.octetString, 'the PRIVATE KEY privateKey')
  return { pkcs8: block.der, algorithm: keyAlgorithmOf(fields[1], 'the PRIVATE KEY privateKeyAlgorithm') }
}

/** PKCS#8's `PrivateKeyInfo ::= SEQUENCE { version 0, privateKeyAlgorithm, privateKey OCTET STRING }`. */
function privateKeyInfo(algorithmIdentifier: Uint8Array, privateKey: Uint8Array): Uint8Array {
  return encodeElement(TAG.sequence, encodeElement(TAG.integer, Uint8Array.of(0)), algorithmIdentifier, encodeElement(TAG.octetString, privateKey))
}
