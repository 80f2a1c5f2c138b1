import { encodeBase64url } from '../crypto/base64url.ts'

/**
 * A new bearer token: 32 random bytes, base64url, after a prefix that names whose it is
 * (`hpe.<cluster>.` or `hpa.` for the admin), so a token found in a log says what it opens, and
 * a request can tell "another cluster's token" (403) from "no valid token" (401).
 */
export function newToken(cluster?: string): string {
  const secret = encodeBase64url(crypto.getRandomValues(new Uint8Array(32)))
  return cluster === undefined ? `hpa.${secret}` : `hpe.${cluster}.${secret}`
}

/** The cluster a token claims to be for (not yet checked), or undefined for another kind of token. */
export function claimedCluster(token: string): string | undefined {
  const parts = token.split('.')
  return parts.length === 3 && parts[0] === 'hpe' ? parts[1] : undefined
}

/** Compares two hex digests without an early exit, so timing tells nothing of where they differ. */
export function sameDigest(a: string, b: string): boolean {
  let difference = a.length ^ b.length
  for (let i = 0; i < Math.max(a.length, b.length); i++) difference |= (a.charCodeAt(i) || 0) ^ (b.charCodeAt(i) || 0)
  return difference === 0
}
