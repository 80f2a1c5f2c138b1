import type { HostConfig } from '../model/derive-host.ts'
import { regexLiteral } from '../syntax/safe-regex-emit.ts'
import { FILES } from './files.ts'
import type { SetVar, AddEntry } from './route-keys.ts'

/** Ranks are written in four digits: a host is at most 253 characters, so the longest suffix ranks first. */
const RANK_BASE = 10_000

/**
 * The Gateway API's wildcard (`*.example.com`) matches any number of labels; an Ingress's, which
 * hosts.map serves as `*.` + the parent domain, exactly one. A wildcard host only HTTPRoutes serve
 * (deepWildcard, derive-host.ts) is also a line of `maps/wildcard-hosts.map`: a regular expression
 * for the names that end in `.example.com`, whose value is the host the route maps key its routes
 * by. The first line that matches wins, so the longest suffix ranks first, as the specification's
 * precedence asks (a rank in a comment leads each key, and map files are sorted by key); the map
 * is swapped whole when a line comes or goes (map-updates.ts).
 */
export function wildcardHostKey(host: string): string {
  const suffix = host.slice(1)
  const rank = String(RANK_BASE - 1 - suffix.length).padStart(4, '0')
  return `(?#${rank})${regexLiteral(suffix)}$`
}

export function wildcardHostEntries(config: HostConfig, add: AddEntry<typeof FILES.wildcardHostsMap>): void {
  if (config.deepWildcard) add(FILES.wildcardHostsMap, wildcardHostKey(config.host), config.host)
}

/**
 * In the frontend, after the exact name and the one-label wildcard (`*.` + the parent domain):
 * a name neither found is looked up by its suffixes, longest first. A name of one label more
 * than a wildcard's suffix was already found as `*.` + its parent, so only longer names reach here
 * for a host hosts.map has: the precedence stays exact name, then the longest wildcard suffix.
 */
export function wildcardHostRule(set: SetVar): string {
  return set('vhost', `var(txn.host),map_reg(${FILES.wildcardHostsMap})`, 'unless { var(txn.vhost) -m found }')
}
