import { isHostnameField, isIpv4, isIpv6, quote } from '../syntax/fields.ts'
import { httpUrl, type Invalid, invalid, parser } from './values.ts'

/**
 * URLs an annotation names that end up in a map value the shipped Lua reads at request time
 * (external authentication, mirror-target): held to characters that cannot end a map line, split
 * its fields (`|`), end a runtime API command (`;`, space) or be read as HAProxy or Lua syntax.
 */

/** What a URL may hold once its variables are read: RFC 3986's unreserved, reserved and `%`, less `;`, `|`, `#`, quotes and `$`. */
export const URL_CHARACTERS = /^[A-Za-z0-9\-._~:/?&=%+,!*@()[\]]+$/

/** NGINX variables, as `$name`: each is replaced before the URL is checked. */
const VARIABLE = /\$([A-Za-z_][A-Za-z0-9_]*)/g

/** Stand-ins each variable is checked as: a host where a host may go, a path elsewhere. */
const STAND_IN: Readonly<Record<string, string>> = {
  host: 'variable.invalid',
  http_host: 'variable.invalid',
  scheme: 'https',
  request_uri: '/uri',
  escaped_request_uri: '%2Furi',
}

/** An http(s) URL with a host, without credentials, a fragment, or a character outside URL_CHARACTERS; `variables` may be used in it. */
export function templateUrl(what: string, variables: readonly string[]) {
  return parser((raw) => readTemplateUrl(raw, what, variables))
}

/** templateUrl's reading of one value: the URL as written (trimmed), or why it is refused. */
export function readTemplateUrl(raw: string, what: string, variables: readonly string[], example = 'https://auth.example.com/check'): string | Invalid {
  const value = raw.trim()
  const unknown = [...value.matchAll(VARIABLE)].map((match) => match[1]!).find((name) => !variables.includes(name))
  if (unknown !== undefined)
    return invalid(
      `${quote(value)}: $${unknown} is not a variable hapedge reads in ${what} (${variables.length === 0 ? 'none is' : `only ${variables.map((name) => `$${name}`).join(', ')}`})`,
    )
  const checked = value.replace(VARIABLE, (_, name: string) => STAND_IN[name]!)
  if (checked.includes('%[') || !URL_CHARACTERS.test(checked))
    return invalid(`${quote(value)} must be an http or https URL of printable characters without spaces, quotes, ";", "|", "#", "%[" or "$"`)
  const url = httpUrl(checked, value, example)
  if (!(url instanceof URL)) return url
  if (url.username !== '' || url.password !== '') return invalid(`${quote(value)} must not hold credentials (user:password@)`)
  if (!validHost(url.hostname)) return invalid(`${quote(value)} must name a DNS host or an IP address`)
  return value
}

function validHost(host: string): boolean {
  if (host.startsWith('[') && host.endsWith(']')) return isIpv6(host.slice(1, -1))
  return isIpv4(host) || (isHostnameField(host) && !host.startsWith('*.'))
}
