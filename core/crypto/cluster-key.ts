import { decodeBase64url, encodeBase64url } from './base64url.ts'
import type { DeploymentKey, DeploymentKeys } from './deployment-key.ts'
import { ClusterKeyError } from './errors.ts'

/**
 * A cluster's data key as its record stores it: `hpk1.<deployment key id>.<AES-KW output>`, all
 * base64url; 32 key bytes wrap to 40. The id names the deployment secret that wrapped it, so
 * an unwrap picks its key instead of trying each, and a record wrapped under a secret no longer
 * configured says so.
 */
export const WRAPPED_CLUSTER_KEY = /^hpk1\.([A-Za-z0-9_-]{11})\.([A-Za-z0-9_-]{54})$/

const DATA_KEY = { name: 'AES-GCM', length: 256 } as const
const DATA_KEY_USAGES: KeyUsage[] = ['encrypt', 'decrypt']

export function isWrappedClusterKey(value: unknown): value is string {
  return typeof value === 'string' && WRAPPED_CLUSTER_KEY.test(value)
}

/** A fresh AES-GCM-256 data key for one cluster, returned only wrapped: its raw bytes never leave WebCrypto. */
export async function createClusterKey(keys: DeploymentKeys): Promise<string> {
  // Extractable only because wrapKey needs it; the key object goes out of scope here.
  const key = await crypto.subtle.generateKey(DATA_KEY, true, DATA_KEY_USAGES)
  return wrapClusterKey(keys.current, key)
}

/** Wraps an (extractable) AES-GCM key under a deployment key with AES-KW (RFC 3394). */
export async function wrapClusterKey(deploymentKey: DeploymentKey, key: CryptoKey): Promise<string> {
  const wrapped = new Uint8Array(await crypto.subtle.wrapKey('raw', key, deploymentKey.wrappingKey, 'AES-KW'))
  return `hpk1.${deploymentKey.id}.${encodeBase64url(wrapped)}`
}

/** The cluster's data key, usable to seal and open but never exportable. */
export function unwrapClusterKey(keys: DeploymentKeys, wrapped: string): Promise<CryptoKey> {
  return unwrap(keys, wrapped, false)
}

/** Whether a wrapped key was wrapped under a deployment secret other than the current one. */
export function needsRewrap(keys: DeploymentKeys, wrapped: string): boolean {
  return parse(wrapped).keyId !== keys.current.id
}

/**
 * The same data key wrapped under the current deployment secret, so a previous secret can be
 * retired once every record has been rewrapped. Values sealed with the key still open.
 */
export async function rewrapClusterKey(keys: DeploymentKeys, wrapped: string): Promise<string> {
  if (!needsRewrap(keys, wrapped)) return wrapped
  return wrapClusterKey(keys.current, await unwrap(keys, wrapped, true))
}

async function unwrap(keys: DeploymentKeys, wrapped: string, extractable: boolean): Promise<CryptoKey> {
  const { keyId, bytes } = parse(wrapped)
  const deploymentKey = [keys.current, ...keys.previous].find((key) => key.id === keyId)
  if (!deploymentKey) {
    const configured = [keys.current, ...keys.previous].map((key) => key.id).join(', ')
    throw new ClusterKeyError(
      'unknown-deployment-key',
      `it was wrapped under deployment key ${keyId}, and the configured secrets have ids ${configured}: configure the secret it was wrapped under (as the previous one while rotating)`,
    )
  }
  try {
    return await crypto.subtle.unwrapKey('raw', bytes, deploymentKey.wrappingKey, 'AES-KW', DATA_KEY, extractable, DATA_KEY_USAGES)
  } catch {
    throw new ClusterKeyError('unwrap', `AES-KW refused it under deployment key ${keyId}: the wrapped key was altered`)
  }
}

function parse(wrapped: string): { keyId: string; bytes: Uint8Array<ArrayBuffer> } {
  const match = typeof wrapped === 'string' ? WRAPPED_CLUSTER_KEY.exec(wrapped) : null
  const bytes = match && decodeBase64url(match[2]!)
  if (!match || !bytes || bytes.length !== 40) throw new ClusterKeyError('format', 'not a wrapped cluster key (hpk1.<key id>.<40 bytes base64url>)')
  return { keyId: match[1]!, bytes }
}
