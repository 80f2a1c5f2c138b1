import { z } from 'zod'
import { isBase64Field } from './secret.ts'
import { namespacedMetadata } from './metadata.ts'

/**
 * The Secret types an auth annotation's Secret has: ingress-nginx's, haproxy-ingress's and
 * haproxytech's are `Opaque`, NGINX Inc.'s `nginx.org/htpasswd`. Others are not read.
 */
export const AUTH_SECRET_TYPES = ['Opaque', 'nginx.org/htpasswd'] as const

/** Where an htpasswd file is kept: `auth` (ingress-nginx, haproxy-ingress), `htpasswd` (NGINX Inc.). */
const HTPASSWD_KEYS = new Set(['auth', 'htpasswd'])

/** A crypt(3)-looking value (`$id$…`, `{SHA}…`): an `auth-map` Secret's user, the only other keys kept. */
const HASH_LIKE = /^(\$[0-9a-z]+\$|\{SHA\})/

/** Where a CA bundle that verifies backends is kept (proxy-ssl-secret: `ca.crt`; haproxytech's server-ca: `tls.crt`), kept when it holds a certificate. */
const CA_KEYS = new Set(['ca.crt', 'tls.crt'])
const PEM_CERTIFICATE = '-----BEGIN CERTIFICATE-----'

/** A Secret data key (Kubernetes: `[-._a-zA-Z0-9]+`, at most 253). */
const DATA_KEY = /^[-._a-zA-Z0-9]{1,253}$/

/**
 * The keys an auth Secret is kept with: the htpasswd files, the values that look like a
 * password hash (an `auth-map` Secret's users), and a CA bundle's certificates. Anything else an `Opaque` Secret holds (the
 * audit path sends every write: a private key, say) goes no further: not into the snapshot, not into a log.
 */
export function trimmedData(data: Record<string, string>): Record<string, string> {
  const kept: Record<string, string> = {}
  for (const [key, value] of Object.entries(data)) {
    const text = decodeBase64(value)
    if (HTPASSWD_KEYS.has(key) || HASH_LIKE.test(text) || (CA_KEYS.has(key) && text.includes(PEM_CERTIFICATE))) kept[key] = value
  }
  return kept
}

/** A base64 value as text (latin1 for anything else: a hash is ASCII, so a non-ASCII value never looks like one). */
export function decodeBase64(value: string): string {
  try {
    const bytes = Uint8Array.from(atob(value.replace(/[\r\n]/g, '')), (char) => char.charCodeAt(0))
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    return ''
  }
}

/** A Secret that may hold users for basic authentication, trimmed to the keys that could (trimmedData). */
export const authSecret = z.object({
  apiVersion: z.literal('v1'),
  kind: z.literal('Secret'),
  type: z.enum(AUTH_SECRET_TYPES),
  metadata: namespacedMetadata.pick({ name: true, namespace: true }),
  data: z
    .record(z.string().regex(DATA_KEY, 'must be a Secret data key'), z.string().refine(isBase64Field, 'must be base64 (at most 1 MiB)'))
    .nullish()
    .transform((data) => trimmedData(data ?? {})),
})

export type AuthSecret = z.infer<typeof authSecret>

export function isAuthSecretType(type: unknown): type is AuthSecret['type'] {
  return (AUTH_SECRET_TYPES as readonly unknown[]).includes(type)
}
