import type { AuthSecretType } from '../annotations/features.ts'
import { readUsers, type User } from '../annotations/password-hashes.ts'
import { describeIssue } from '../issues.ts'
import { decodeBase64 } from '../kube/auth-secret.ts'
import type { Ingress } from '../kube/ingress.ts'
import { TLS_SECRET_TYPE } from '../kube/secret.ts'
import { authSecretOf } from './auth-secret-ref.ts'
import type { ClusterState } from './cluster-state.ts'
import { againstSecret, NOTHING_ASKED } from './object-reading.ts'
import { annotationSources, ingressAnnotations, type AnnotationWarning } from './ingress-annotations.ts'
import { describeIngress } from './ingress-order.ts'

/** One Ingress's basic authentication: the userlist its Secret gives and the realm of its 401. */
export interface BasicAuth {
  /** `auth_<namespace>_<name>_<type>`: one userlist per Secret read one way (SAFE_USERLIST). */
  userlist: string
  /** The Secret, `namespace/name`, named in the plan when its users change. */
  secret: string
  realm: string
  users: User[]
}

export type BasicAuthReading =
  /** No basic authentication asked for (or the annotations alone refuse the Ingress). */
  | { none: true }
  | { auth: BasicAuth; warnings: AnnotationWarning[] }
  /** Basic authentication that cannot be checked: the Ingress is refused, never served open. */
  | { refusal: string }

/** What a userlist name may hold: HAProxy section names take letters, digits, `.`, `-`, `_` and `:`. */
export const SAFE_USERLIST = /^[a-z0-9][a-z0-9._-]*$/
/** A user name written into `user <name> password <hash>`: nothing HAProxy's parser reads as a quote, escape, comment or separator. */
const SAFE_USER = /^[A-Za-z0-9._@+~-]{1,128}$/
/** A hash as written: crypt(3)'s alphabet, and the `$`, `=` and `,` of its settings (unquoted, so `$` is never an environment variable). */
const SAFE_HASH = /^[A-Za-z0-9./$=,]+$/
/** A realm written between double quotes: no quote, backslash or `$` (HAProxy's parser reads those there). */
const SAFE_REALM = /^[A-Za-z0-9 .,:;!?@()/_+*&%'[\]{}|~^=<>-]{1,128}$/

export const DEFAULT_REALM = 'Authentication Required'

const ANNOTATION = 'basic authentication'

/** An Ingress's basic authentication against the Secret it names, as the cluster holds it now (memoised while neither changes). */
export const basicAuthOf = againstSecret(authSecretOf, judge)

function judge(ingress: Ingress, key: string | undefined, secret: ReturnType<ClusterState['secret']>): BasicAuthReading {
  const { rendered, refusal } = ingressAnnotations(ingress)
  if (key === undefined || rendered['auth-type'] !== 'basic' || refusal !== undefined) return NOTHING_ASKED
  const refuse = (reason: string): BasicAuthReading => ({ refusal: `${ANNOTATION}: ${reason}, so no user could be checked; its routes answer 503` })
  if (!secret) return refuse(`Secret ${key} does not exist, or holds no users (an htpasswd file under "auth" or "htpasswd", or one key per user)`)
  if ('issues' in secret) return refuse(`Secret ${key} is invalid: ${secret.issues.slice(0, 3).map(describeIssue).join('; ')}`)
  if (secret.type === TLS_SECRET_TYPE) return refuse(`Secret ${key} is a kubernetes.io/tls Secret, not one of users`)
  const type: AuthSecretType = rendered['auth-secret-type'] ?? (secret.type === 'nginx.org/htpasswd' ? 'nginx-htpasswd' : 'auth-file')
  const data = Object.fromEntries(Object.entries(secret.data).map(([field, value]) => [field, decodeBase64(value)]))
  const read = readUsers(type, data)
  if ('error' in read) return refuse(`Secret ${key}: ${read.error}`)
  const object = describeIngress(ingress)
  // The annotations that named the Secret and the realm, for the warnings.
  const { readFrom } = annotationSources(ingress)
  const warnings: AnnotationWarning[] = []
  const warn = (user: string, reason: string) =>
    warnings.push({
      object,
      annotation: readFrom['auth-secret']?.[0] ?? ANNOTATION,
      reason: `user ${JSON.stringify(user)} of Secret ${key} is left out: ${reason}`,
    })
  for (const { user, reason } of read.refused) warn(user, SAFE_USER.test(user) ? reason : 'not a user name hapedge writes into the configuration')
  const users: User[] = []
  const named = new Set<string>()
  for (const user of read.users) {
    // As htpasswd and HAProxy do, the first line of a user counts (HAProxy warns of the others, which the agent's check would report).
    if (named.has(user.name)) warn(user.name, 'the user appears again; its first line is the one checked')
    else if (!SAFE_USER.test(user.name))
      warn(user.name, 'the name holds characters hapedge does not write into the configuration (letters, digits and . _ @ + ~ - only)')
    else if (!SAFE_HASH.test(user.hash))
      warn(user.name, 'the hash holds characters hapedge does not write into the configuration; regenerate it with htpasswd -B (bcrypt)')
    else {
      named.add(user.name)
      users.push(user)
    }
  }
  if (users.length === 0) return refuse(`Secret ${key} holds no user whose password hash HAProxy can check`)
  const realm = rendered['auth-realm']
  if (realm !== undefined && !SAFE_REALM.test(realm))
    warnings.push({
      object,
      annotation: readFrom['auth-realm']?.[0] ?? 'auth-realm',
      reason: `the realm holds a quote, a backslash or "$"; the 401 names the realm ${JSON.stringify(DEFAULT_REALM)}`,
    })
  const userlist = `auth_${key.replace('/', '_')}_${type}`
  // Kubernetes names are DNS subdomains, so a userlist name is always safe; anything else would not be safe to write.
  if (!SAFE_USERLIST.test(userlist)) throw new Error(`userlist ${JSON.stringify(userlist)} is not a safe name`)
  return { auth: { userlist, secret: key, realm: realm !== undefined && SAFE_REALM.test(realm) ? realm : DEFAULT_REALM, users }, warnings }
}
