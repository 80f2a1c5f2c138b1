import { sha256Hex } from '../hash.ts'
import { DerError } from './der.ts'
import { describeKeyAlgorithm, importParams, keyAlgorithmOf, publicMembers, sameKeyAlgorithm, UnsupportedKey } from './key-algorithm.ts'
import { readPemPair } from './pem.ts'
import { readPrivateKey, type PrivateKey } from './private-key.ts'
import { readCertificate, type Certificate } from './x509.ts'

/** Pairs whose verdict is remembered: a verdict and its 64-character digest each. */
const REMEMBERED_PAIRS = 4096

/**
 * Verdicts by the digest of the pair's text, least recently used first (a Map keeps insertion
 * order). Settled verdicts only: a promise one request made is not awaited by another (workerd
 * cancels such continuations once the first request ends).
 */
const verdicts = new Map<string, string | undefined>()

/**
 * Why HAProxy could not load a Secret's `tls.crt` and `tls.key` together, or undefined when it
 * can: every certificate is X.509, the key is one hapedge supports, and it is the private half of
 * the first certificate's public key. WebCrypto imports both (so it is async, in every runtime);
 * the key's public part, which it exports, is compared with the certificate's. The verdict is a
 * function of the two texts alone, so it is remembered by their SHA-256: the same pair sent again
 * (a Secret resent unchanged but for its metadata, a certificate copied into many namespaces) is
 * not imported again, where importing was most of a resync's TLS checking.
 */
export async function tlsPairProblem(tlsCrtBase64: string, tlsKeyBase64: string): Promise<string | undefined> {
  const digest = await pairDigest(tlsCrtBase64, tlsKeyBase64)
  const known = verdicts.has(digest)
  const verdict = known ? verdicts.get(digest) : await checkPair(tlsCrtBase64, tlsKeyBase64)
  verdicts.delete(digest)
  verdicts.set(digest, verdict)
  if (verdicts.size > REMEMBERED_PAIRS) verdicts.delete(verdicts.keys().next().value!)
  return verdict
}

// The certificate's length first: no two pairs give the same text.
const pairDigest = (tlsCrtBase64: string, tlsKeyBase64: string) => sha256Hex(`${tlsCrtBase64.length}:${tlsCrtBase64}${tlsKeyBase64}`)

async function checkPair(tlsCrtBase64: string, tlsKeyBase64: string): Promise<string | undefined> {
  const pair = readPemPair(tlsCrtBase64, tlsKeyBase64)
  if (!pair.ok) return pair.reason
  const certificates: Certificate[] = []
  for (const [index, block] of pair.certificates.entries()) {
    const certificate = attempt(() => readCertificate(block.der))
    if (certificate instanceof DerError) return `tls.crt: CERTIFICATE block ${index + 1} is not an X.509 certificate (${certificate.message})`
    certificates.push(certificate)
  }
  const key = attempt(() => readPrivateKey(pair.key))
  if (key instanceof UnsupportedKey) return `tls.key: ${key.message}`
  if (key instanceof DerError) return `tls.key: the ${pair.key.label} cannot be read (${key.message})`
  return keyMatchProblem(certificates[0]!, key)
}

async function keyMatchProblem(certificate: Certificate, key: PrivateKey): Promise<string | undefined> {
  const certified = attempt(() => keyAlgorithmOf(certificate.keyAlgorithm, "the certificate's subjectPublicKeyInfo.algorithm"))
  if (certified instanceof DerError) return `tls.crt: ${certified.message}`
  if (!sameKeyAlgorithm(certified, key.algorithm)) {
    return `tls.key holds ${describeKeyAlgorithm(key.algorithm)}, but the certificate in tls.crt is for ${describeKeyAlgorithm(certified)}`
  }
  const params = importParams(certified)
  let publicKey: JsonWebKey
  try {
    publicKey = await crypto.subtle.exportKey('jwk', await crypto.subtle.importKey('spki', certificate.spki.slice(), params, true, ['verify']))
  } catch (error) {
    return `tls.crt: the certificate's public key cannot be read (${messageOf(error)})`
  }
  let privateKey: JsonWebKey
  try {
    privateKey = await crypto.subtle.exportKey('jwk', await crypto.subtle.importKey('pkcs8', key.pkcs8.slice(), params, true, ['sign']))
  } catch (error) {
    return `tls.key: the private key cannot be read (${messageOf(error)})`
  }
  const matches = publicMembers(certified).every((member) => privateKey[member] !== undefined && privateKey[member] === publicKey[member])
  return matches ? undefined : 'tls.key does not match the certificate in tls.crt'
}

/** What a reader read, or the DerError saying why it could not. */
function attempt<T>(read: () => T): T | DerError {
  try {
    return read()
  } catch (error) {
    if (error instanceof DerError) return error
    throw error
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
