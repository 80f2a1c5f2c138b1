import { encodeBase64url } from './base64url.ts'
import { DeploymentSecretError } from './errors.ts'

/** Shorter secrets are refused: the deployment key is only as strong as the secret it comes from. */
export const MINIMUM_SECRET_LENGTH = 32

const encoder = new TextEncoder()
const SALT = encoder.encode('hapedge deployment secret')
const KEY_WRAPPING_INFO = encoder.encode('hapedge key wrapping v1')
const KEY_ID_INFO = encoder.encode('hapedge key id v1')

/**
 * One deployment secret's key-encryption key (AES-KW, never extractable), and its key id: a
 * public name for the secret, derived apart from the key so that it tells nothing of either.
 */
export interface DeploymentKey {
  id: string
  wrappingKey: CryptoKey
}

/** The key that wraps new cluster keys, and those that still unwrap keys wrapped before a rotation. */
export interface DeploymentKeys {
  current: DeploymentKey
  previous: DeploymentKey[]
}

/** The deployment secrets: `previous` only while cluster keys wrapped under it remain. */
export interface DeploymentSecrets {
  current: string
  previous?: string | undefined
}

/** Refuses a secret too short to be a key, with a message an operator can act on. */
export function checkDeploymentSecret(secret: string, name = 'the deployment secret'): void {
  if (typeof secret !== 'string' || secret.length === 0) throw new DeploymentSecretError(`${name} is not set`)
  const length = [...secret].length
  if (length < MINIMUM_SECRET_LENGTH) {
    throw new DeploymentSecretError(`${name} has ${length} characters, at least ${MINIMUM_SECRET_LENGTH} are needed (random, e.g. 32 bytes as base64)`)
  }
}

/** HKDF-SHA-256 from the secret's UTF-8 bytes: the AES-KW key and, under another `info`, its id. */
export async function deriveDeploymentKey(secret: string, name?: string): Promise<DeploymentKey> {
  checkDeploymentSecret(secret, name)
  const material = await crypto.subtle.importKey('raw', encoder.encode(secret), 'HKDF', false, ['deriveKey', 'deriveBits'])
  const hkdf = (info: Uint8Array<ArrayBuffer>) => ({ name: 'HKDF', hash: 'SHA-256', salt: SALT, info })
  const wrappingKey = await crypto.subtle.deriveKey(hkdf(KEY_WRAPPING_INFO), material, { name: 'AES-KW', length: 256 }, false, ['wrapKey', 'unwrapKey'])
  const id = encodeBase64url(new Uint8Array(await crypto.subtle.deriveBits(hkdf(KEY_ID_INFO), material, 64)))
  return { id, wrappingKey }
}

/** An empty `previous` counts as unset, as an environment variable set to nothing would be. */
export async function deriveDeploymentKeys(secrets: DeploymentSecrets): Promise<DeploymentKeys> {
  const current = await deriveDeploymentKey(secrets.current, 'the current deployment secret')
  const previous = secrets.previous ? [await deriveDeploymentKey(secrets.previous, 'the previous deployment secret')] : []
  return { current, previous: previous.filter((key) => key.id !== current.id) }
}
