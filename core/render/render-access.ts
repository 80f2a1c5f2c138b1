import type { AccessGroup } from '../model/access-group.ts'
import { lines } from './files.ts'

/** The four ACL files of a group: a rule of a fixed shape reads each, so any change of the lists' entries is a runtime ACL edit. */
const LISTS = ['allow', 'allow-except', 'deny', 'deny-except'] as const
type List = (typeof LISTS)[number]

/** Every address: the allow file of a group that has only a deny-list. */
const EVERYWHERE = ['0.0.0.0/0', '::/0']

/** The proxies whose X-Forwarded-For is believed (a cluster setting). */
export const TRUSTED_PROXIES_FILE = 'acls/trusted-proxies.acl'

export function aclFile(group: string, list: List): string {
  return `acls/${group}.${list}.acl`
}

/** A group's ACL file paths. */
export function aclFiles(group: string): string[] {
  return LISTS.map((list) => aclFile(group, list))
}

/** Whether a rendered path is an ACL file (read with `src -f`, edited at runtime with `add acl` / `del acl`). */
export function isAclFile(path: string): boolean {
  return /^acls\/[^/]+\.acl$/.test(path)
}

/**
 * A group's ACL files. Allowed: in `allow` (everything without an allow-list) and not in
 * `allow-except`; refused besides: in `deny` and not in `deny-except` (haproxy-ingress's `!` entries).
 */
export function accessFiles(group: AccessGroup): [string, string][] {
  const contents: Record<List, string[]> = {
    allow: group.allow?.ranges ?? EVERYWHERE,
    'allow-except': group.allow?.exceptions ?? [],
    deny: group.deny?.ranges ?? [],
    'deny-except': group.deny?.exceptions ?? [],
  }
  return LISTS.map((list) => [aclFile(group.name, list), lines(contents[list])])
}

export function trustedProxiesFile(proxies: readonly string[]): string {
  return lines(proxies)
}

/**
 * The frontend's rules for source ranges: the client's address from the last X-Forwarded-For
 * entry only when the connection comes from a trusted proxy, and per group (the route's
 * `txn.access`, from its map value) a 403 outside the allowed addresses.
 */
export function accessRules(groups: readonly string[]): string[] {
  return groups.flatMap((group) => {
    const member = `{ var(txn.access) -m str ${group} }`
    const src = (list: List) => `{ src -f ${aclFile(group, list)} }`
    return [
      `    http-request deny deny_status 403 if ${member} !${src('allow')}`,
      `    http-request deny deny_status 403 if ${member} ${src('allow-except')}`,
      `    http-request deny deny_status 403 if ${member} ${src('deny')} !${src('deny-except')}`,
    ]
  })
}

export const TRUSTED_PROXIES_RULE = `    http-request set-src hdr_ip(x-forwarded-for,-1) if { src -f ${TRUSTED_PROXIES_FILE} }`

/**
 * X-Forwarded-For as the Services get it: a client's own is dropped, so the entry `option
 * forwardfor if-none` adds is the only one and names the client hapedge saw. From a trusted proxy
 * the proxy's is kept, its last entry becomes the client's address (TRUSTED_PROXIES_RULE), and the
 * proxy's own address is appended, as a hop adds the address it came from (not the client again).
 */
export function forwardedForRules(trustedProxies: boolean): string[] {
  if (!trustedProxies) return ['    http-request del-header X-Forwarded-For']
  const forwarded = `{ src -f ${TRUSTED_PROXIES_FILE} } { req.fhdr(x-forwarded-for) -m found }`
  return [
    `    http-request del-header X-Forwarded-For unless { src -f ${TRUSTED_PROXIES_FILE} }`,
    `    http-request set-var(txn.proxy) src if ${forwarded}`,
    TRUSTED_PROXIES_RULE,
    '    http-request set-header X-Forwarded-For "%[req.fhdr(x-forwarded-for)], %[var(txn.proxy)]" if { var(txn.proxy) -m found }',
  ]
}

/** The separator between a route's backend and its access group in the routing maps' values (in neither name). */
export const ACCESS_SEPARATOR = ':'

/**
 * A routing map's value: the backend, and the access group when there is one (`shop_web_80:shop_web`),
 * so the frontend finds both with the one lookup that picks the route (or the default backend).
 */
export function mapTarget(backend: string, access: string | undefined): string {
  return access ? `${backend}${ACCESS_SEPARATOR}${access}` : backend
}
