import { decodeBase64url, encodeBase64url } from '../../../core/crypto/base64url.ts'
import { sameDigest } from '../../../core/registry/tokens.ts'
import type { RevokedSessions } from './revoked-sessions.ts'

/** How long a login lasts. */
export const SESSION_SECONDS = 12 * 60 * 60

const encoder = new TextEncoder()
const INFO = encoder.encode('hapedge fleet page session v1')

/** A signed-in browser: until when, and the token its forms must carry (it differs per session). */
export interface Session {
  expires: Date
  csrf: string
}

/**
 * The fleet page's sessions, signed with a key derived (HKDF) from the admin token's sha256, so
 * changing the admin token ends every session. A session's cookie is `expiry.nonce.mac`, never the
 * token itself; its CSRF token is a MAC of the same expiry and nonce under another label, so it
 * needs no storage either. Signing out keeps the session's `expiry.nonce` among the `revoked`
 * until it expires, so a copy of the cookie is refused from then on. WebCrypto only: it runs on
 * Node, Workers and Lambda alike.
 */
export function sessions(adminTokenSha256: string, revoked: RevokedSessions) {
  let key: Promise<CryptoKey> | undefined
  const signingKey = () => (key ??= deriveKey(adminTokenSha256))
  const mac = async (label: string, body: string) => new Uint8Array(await crypto.subtle.sign('HMAC', await signingKey(), encoder.encode(`${label} ${body}`)))
  const csrfOf = async (body: string) => encodeBase64url(await mac('csrf', body))

  /** The cookie's `expiry.nonce` and expiry when it is well formed, signed under this admin token and not expired; its revocation is not asked. */
  const signed = async (cookie: string | undefined, now: Date): Promise<{ id: string; expires: Date } | undefined> => {
    const match = /^(\d{1,12})\.([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{43})$/.exec(cookie ?? '')
    if (!match) return undefined
    const id = `${match[1]}.${match[2]}`
    const signature = decodeBase64url(match[3]!)
    if (!signature || !(await crypto.subtle.verify('HMAC', await signingKey(), signature, encoder.encode(`session ${id}`)))) return undefined
    const expires = new Date(Number(match[1]) * 1000)
    return expires > now ? { id, expires } : undefined
  }

  return {
    /** A new session from `now`: the cookie's value and the session. */
    async issue(now: Date): Promise<{ cookie: string; session: Session }> {
      const expires = Math.floor(now.getTime() / 1000) + SESSION_SECONDS
      const body = `${expires}.${encodeBase64url(crypto.getRandomValues(new Uint8Array(16)))}`
      const cookie = `${body}.${encodeBase64url(await mac('session', body))}`
      return { cookie, session: { expires: new Date(expires * 1000), csrf: await csrfOf(body) } }
    },

    /** The session a cookie carries, or undefined when it is missing, forged, signed under another admin token, expired, or signed out. */
    async open(cookie: string | undefined, now: Date): Promise<Session | undefined> {
      const session = await signed(cookie, now)
      // Only a genuine cookie costs a storage read.
      if (!session || (await revoked.has(session.id))) return undefined
      return { expires: session.expires, csrf: await csrfOf(session.id) }
    },

    /** Signs a cookie's session out: from now on it opens nothing, wherever the app runs. */
    async end(cookie: string | undefined, now: Date): Promise<void> {
      const session = await signed(cookie, now)
      if (session) await revoked.add(session.id, session.expires, now)
    },
  }
}

/** Whether a form carried the session's CSRF token (compared in constant time). */
export const carriesCsrf = (session: Session, token: unknown): boolean => typeof token === 'string' && sameDigest(token, session.csrf)

async function deriveKey(adminTokenSha256: string): Promise<CryptoKey> {
  const material = await crypto.subtle.importKey('raw', encoder.encode(adminTokenSha256), 'HKDF', false, ['deriveKey'])
  return crypto.subtle.deriveKey(
    { name: 'HKDF', hash: 'SHA-256', salt: new Uint8Array(0), info: INFO },
    material,
    { name: 'HMAC', hash: 'SHA-256', length: 256 },
    false,
    ['sign', 'verify'],
  )
}
