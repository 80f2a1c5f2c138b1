import type { AuthSecretType } from './features.ts'

/**
 * The password hashes HAProxy can check. A `userlist` user's `password` is "evaluated using the
 * crypt(3) function, so depending on the system's capabilities, different algorithms are supported"
 * (configuration.txt §3.4). The agents' HAProxy (Debian 12's 2.6) links libxcrypt 4.4, whose crypt
 * checks the schemes below; tried on that system, `$apr1$` (Apache's MD5, htpasswd's default) and
 * `{SHA}` come back as failures. DES crypt is checkable but reads only 8 characters of a password.
 * A user whose hash is not in ACCEPTED is refused (fail closed), never let through.
 */
const ACCEPTED: readonly { scheme: string; pattern: RegExp }[] = [
  { scheme: 'bcrypt', pattern: /^\$2[aby]\$\d{2}\$[./A-Za-z0-9]{53}$/ },
  { scheme: 'yescrypt', pattern: /^\$y\$[./A-Za-z0-9]+\$[./A-Za-z0-9]*\$[./A-Za-z0-9]{43}$/ },
  { scheme: 'scrypt', pattern: /^\$7\$[./A-Za-z0-9]{11,}\$[./A-Za-z0-9]{43}$/ },
  { scheme: 'sha512crypt', pattern: /^\$6\$(rounds=\d+\$)?[^$:\s]{1,16}\$[./A-Za-z0-9]{86}$/ },
  { scheme: 'sha256crypt', pattern: /^\$5\$(rounds=\d+\$)?[^$:\s]{1,16}\$[./A-Za-z0-9]{43}$/ },
  { scheme: 'md5crypt', pattern: /^\$1\$[^$:\s]{1,8}\$[./A-Za-z0-9]{22}$/ },
]

const REFUSED: readonly { pattern: RegExp; reason: string }[] = [
  { pattern: /^\$apr1\$/, reason: "Apache's $apr1$ MD5 (htpasswd's default) is not a crypt(3) scheme; regenerate it with htpasswd -B (bcrypt)" },
  { pattern: /^\{SHA\}/, reason: 'the {SHA} scheme is not a crypt(3) scheme; regenerate it with htpasswd -B (bcrypt)' },
  { pattern: /^[./A-Za-z0-9]{13}$/, reason: 'DES crypt reads only the first 8 characters of a password; regenerate it with htpasswd -B (bcrypt)' },
]

export type HashCheck = { scheme: string } | { refused: string }

export function checkPasswordHash(hash: string): HashCheck {
  const accepted = ACCEPTED.find(({ pattern }) => pattern.test(hash))
  if (accepted) return { scheme: accepted.scheme }
  const refused = REFUSED.find(({ pattern }) => pattern.test(hash))
  return { refused: refused?.reason ?? 'not a password hash HAProxy can check (bcrypt, yescrypt, scrypt, sha512crypt, sha256crypt or md5crypt)' }
}

export interface User {
  name: string
  hash: string
}

export interface UsersReading {
  users: User[]
  /** Users left out, and why: a request naming them is answered 401, as for an unknown user. */
  refused: { user: string; reason: string }[]
}

/** A user name HAProxy's `userlist` can hold: no whitespace, no `:` (htpasswd's separator). */
const USER = /^[^\s:#]{1,256}$/

/**
 * The users of an auth Secret's data (already base64-decoded), by its auth-secret-type: an htpasswd
 * file under `auth` (ingress-nginx, haproxy-ingress) or `htpasswd` (NGINX Inc.), or one key per user
 * (`auth-map`, and haproxytech's Secrets).
 */
export function readUsers(type: AuthSecretType, data: Readonly<Record<string, string>>): UsersReading | { error: string } {
  const entries: [string, string][] = []
  if (type === 'auth-map') entries.push(...Object.entries(data))
  else {
    const key = type === 'auth-file' ? 'auth' : 'htpasswd'
    const file = data[key]
    if (file === undefined) return { error: `the Secret has no "${key}" key` }
    for (const line of file.split('\n').map((text) => text.trim())) {
      if (line === '' || line.startsWith('#')) continue
      const at = line.indexOf(':')
      entries.push(at < 0 ? [line, ''] : [line.slice(0, at), line.slice(at + 1)])
    }
  }
  const reading: UsersReading = { users: [], refused: [] }
  for (const [name, hash] of entries) {
    if (!USER.test(name)) {
      reading.refused.push({ user: name, reason: 'not a user name HAProxy can hold (whitespace, ":" or "#")' })
      continue
    }
    const check = checkPasswordHash(hash.trim())
    if ('refused' in check) reading.refused.push({ user: name, reason: check.refused })
    else reading.users.push({ name, hash: hash.trim() })
  }
  return reading
}
