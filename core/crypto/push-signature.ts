import { hkdf } from '@noble/hashes/hkdf.js'
import { hmac } from '@noble/hashes/hmac.js'
import { sha256 } from '@noble/hashes/sha2.js'
import { decodeBase64url, encodeBase64url } from './base64url.ts'
import { checkDeploymentSecret } from './deployment-key.ts'

// Synchronous (pure JS) rather than WebCrypto: in Node a WebCrypto call waits for a thread of the
// pool the commit's file writes and fsyncs occupy, which cost a push milliseconds on its way.

const encoder = new TextEncoder()
const SALT = encoder.encode('hapedge deployment secret')
const PUSH_KEYS_INFO = encoder.encode('hapedge push keys v1')
const KEY_BYTES = 32

/** What a signed push vouches for: the generation the cluster's HEAD named, and its manifest (all below it is content-addressed). */
export interface PushedHead {
  generation: number
  manifest: string
}

/**
 * The deployment's root of agents' push keys: HKDF-SHA-256 of the deployment secret under an
 * `info` of its own, so that it tells nothing of the key that wraps cluster keys.
 */
export function derivePushRoot(secret: string): Uint8Array {
  checkDeploymentSecret(secret)
  return hkdf(sha256, encoder.encode(secret), SALT, PUSH_KEYS_INFO, KEY_BYTES)
}

/**
 * One agent run's push key (32 bytes): the root's HMAC of the cluster, the pod and the run's
 * instance name, so that any replica holding the secret derives it and nothing needs storing;
 * an agent's next run (another instance name) takes no push signed for this one.
 */
export function agentPushKey(root: Uint8Array, cluster: string, pod: string, instance: string): Uint8Array {
  return hmac(sha256, root, encoder.encode(`${cluster}\n${pod}\n${instance}`))
}

/** The bytes of a push key as the agent is given it (base64url); undefined when it is not such a key. */
export function pushKeyBytes(encoded: string): Uint8Array | undefined {
  const bytes = decodeBase64url(encoded)
  return bytes?.byteLength === KEY_BYTES ? bytes : undefined
}

/** The signature (base64url HMAC-SHA-256) of `head` as cluster `cluster`'s, under one agent run's push key. */
export function signPushedHead(key: Uint8Array, cluster: string, head: PushedHead): string {
  return encodeBase64url(hmac(sha256, key, signedText(cluster, head)))
}

/** Whether `signature` is `signPushedHead`'s for this cluster and head under `key`, compared in constant time. */
export function verifyPushedHead(key: Uint8Array, cluster: string, head: PushedHead, signature: string): boolean {
  const given = decodeBase64url(signature)
  const expected = hmac(sha256, key, signedText(cluster, head))
  if (given?.byteLength !== expected.byteLength) return false
  let difference = 0
  for (let i = 0; i < expected.byteLength; i++) difference |= expected[i]! ^ given[i]!
  return difference === 0
}

/** One line per field, each of a form with no line break: no two heads sign the same text. */
function signedText(cluster: string, { generation, manifest }: PushedHead): Uint8Array {
  return encoder.encode(`hapedge pushed head v1\n${cluster}\n${generation}\n${manifest}`)
}
