import type { AccessGroup } from '../model/access-group.ts'
import type { BasicAuth } from '../model/basic-auth.ts'
import { compareText } from '../compare-text.ts'
import { lines } from './files.ts'

/**
 * The userlists of basic authentication, one per Secret read one way. HAProxy 2.6 has no runtime
 * command for userlists, so any change of this file is a reload. Loaded before the frontend
 * (`haproxy -f DIR` reads the `*.cfg` files in lexical order); absent without basic authentication.
 */
export const USERLISTS_FILE = '05-userlists.cfg'

/** The userlists the access groups check, each once, sorted; undefined when none does. */
export function userlistsFile(groups: Iterable<AccessGroup>): string | undefined {
  const byName = new Map<string, BasicAuth>()
  for (const group of groups) if (group.auth) byName.set(group.auth.userlist, group.auth)
  if (byName.size === 0) return undefined
  return [...byName.values()]
    .sort((a, b) => compareText(a.userlist, b.userlist))
    .map(({ userlist, users }) => lines([`userlist ${userlist}`, ...users.map(({ name, hash }) => `    user ${name} password ${hash}`)]))
    .join('')
}

/** A group's 401 (`WWW-Authenticate: Basic realm="…"`) unless the request's credentials are in its userlist. */
export function authRules(groups: Iterable<AccessGroup>): string[] {
  const rules: string[] = []
  for (const { name, auth } of groups)
    if (auth) rules.push(`    http-request auth realm "${auth.realm}" if { var(txn.access) -m str ${name} } !{ http_auth(${auth.userlist}) }`)
  return rules
}
