import { DerError, expectTag, readElements, readWhole, TAG, type DerElement } from './der.ts'

/** What hapedge needs of a certificate: its public key, to check the Secret's private key against, and its names, to chain it. */
export interface Certificate {
  /** The issuer's and the subject's Name (RFC 5280, 4.1.2.4 and 4.1.2.6), as encoded. */
  issuer: Uint8Array
  subject: Uint8Array
  /** The SubjectPublicKeyInfo as encoded: what WebCrypto imports as `spki`. */
  spki: Uint8Array
  /** Its AlgorithmIdentifier, which says the key's type. */
  keyAlgorithm: DerElement
}

/**
 * Walks an X.509 certificate (RFC 5280, 4.1) down to its SubjectPublicKeyInfo, checking the
 * shape of every field on the way and that every nested element is well formed, so that what
 * passes is what OpenSSL parses. Throws DerError saying what is wrong.
 */
export function readCertificate(der: Uint8Array): Certificate {
  const certificate = expectTag(readWhole(der), TAG.sequence, 'the Certificate')
  const parts = readElements(certificate.contents)
  if (parts.length !== 3)
    throw new DerError(`a Certificate is a SEQUENCE of 3 elements (tbsCertificate, signatureAlgorithm, signature), this one holds ${parts.length}`)
  const [tbs, signatureAlgorithm, signature] = parts
  expectTag(signatureAlgorithm, TAG.sequence, 'signatureAlgorithm')
  expectTag(signature, TAG.bitString, 'signature')

  const fields = readElements(expectTag(tbs, TAG.sequence, 'tbsCertificate').contents)
  let next = fields[0]?.tag === TAG.context0 ? 1 : 0
  const field = (tag: number, name: string) => expectTag(fields[next++], tag, `tbsCertificate.${name}`)
  field(TAG.integer, 'serialNumber')
  field(TAG.sequence, 'signature')
  const issuer = field(TAG.sequence, 'issuer')
  const validity = readElements(field(TAG.sequence, 'validity').contents)
  if (validity.length !== 2 || validity.some((time) => time.tag !== TAG.utcTime && time.tag !== TAG.generalizedTime)) {
    throw new DerError('tbsCertificate.validity is not two times (notBefore, notAfter)')
  }
  const subject = field(TAG.sequence, 'subject')
  const spki = field(TAG.sequence, 'subjectPublicKeyInfo')
  const [keyAlgorithm, publicKey, ...rest] = readElements(spki.contents)
  expectTag(keyAlgorithm, TAG.sequence, 'subjectPublicKeyInfo.algorithm')
  expectTag(publicKey, TAG.bitString, 'subjectPublicKeyInfo.subjectPublicKey')
  if (rest.length > 0) throw new DerError('subjectPublicKeyInfo holds more than an algorithm and a key')
  return { issuer: issuer.encoded, subject: subject.encoded, spki: spki.encoded, keyAlgorithm: keyAlgorithm! }
}
