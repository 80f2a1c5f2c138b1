import { DerError } from './der.ts'
import { describeKeyAlgorithm, importParams, keyAlgorithmOf, publicMembers, sameKeyAlgorithm, UnsupportedKey } from './key-algorithm.ts'
import { readPemPair } from './pem.ts'
import { readPrivateKey, type PrivateKey } from './private-key.ts'
import { readCertificate, type Certificate } from './x509.ts'

/**
 * Why HAProxy could not load a Secret's `tls.crt` and `tls.key` together, or undefined when it
 * can: every certificate is X.509, the key is one hapedge supports, and it is the private half of
 * the first certificate's public key. WebCrypto imports both (so it is async, in every runtime);
 * the key's public part, which it exports, is compared with the certificate's.
 */
export async function tlsPairProblem(tlsCrtBase64: string, tlsKeyBase64: string): Promise<string | undefined> {
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
