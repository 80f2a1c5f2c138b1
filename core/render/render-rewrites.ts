import type { HostConfig, Route } from '../model/derive-host.ts'
import { NO_CAPTURE } from '../model/route-rewrite.ts'
import { FILES } from './files.ts'
import { regexRewrite } from './render-regex-paths.ts'
import { routeValueLookup, type SetVar, type AddEntry } from './route-keys.ts'
import { splitValueEntries, splitValueRules } from './render-split-values.ts'
import type { SplitBackend } from '../model/route-split.ts'

/**
 * rewrite-target and x-forwarded-prefix. A route's value is one map line HAProxy reads at request
 * time, `prefix|before|capture|after|x-forwarded-prefix`, so a changed target, prefix or header is
 * a runtime map edit: the rules below only change with hapedge, and no regular expression a user
 * wrote is ever configuration (path-pattern.ts reads each into a prefix and the meaning of its
 * groups). Values never hold `|`: they are RFC 3986 paths (fields.ts).
 */

export type RewriteMap = typeof FILES.rewriteExactMap | typeof FILES.rewritePrefixMap

const MAPS = { exact: FILES.rewriteExactMap, prefix: FILES.rewritePrefixMap } as const
const SEPARATOR = '|'
/** The value of a route without a rewrite on a host with one, so the longest-prefix lookup stops at it. */
const NONE = '-'

/** The rewrite map entries of one host, keyed as the route maps key its routes. */
export function rewriteEntries(config: HostConfig, add: AddEntry<RewriteMap>): void {
  splitValueEntries(add, config.host, config.routes, MAPS, rewriteAt, NONE)
}

/** A route's rewrite, or a split's Service's own when its backendRef rewrites (render-split-values.ts). */
function rewriteAt(route: Route, place?: SplitBackend): string | undefined {
  return place ? place.rewrite && rewriteValue({ ...route, rewrite: place.rewrite }) : rewriteValue(route)
}

function rewriteValue(route: Route): string | undefined {
  const { rewrite } = route
  if (!rewrite) return undefined
  // The prefix the rest of the path follows: none for the root, whose rest is the whole path, nor for a Regex route (its expression may hold `|`).
  const prefix = route.match === 'Exact' || (route.match === 'Prefix' && route.path !== '/') ? route.path : ''
  // A Regex route's new path is its regex map's value, filled from the request's key (render-regex-paths.ts).
  const { before = '', capture = rewrite.regexTarget === undefined ? '' : REGEX_CAPTURE, after = '' } = rewrite.path ?? {}
  return [prefix, before, capture, after, rewrite.forwardedPrefix ?? ''].join(SEPARATOR)
}

/** The capture field of a Regex route's rewrite: its whole new path comes from map_regm. */
const REGEX_CAPTURE = 'regex'

const field = (n: number) => `var(txn.rewrite),field(${n},${SEPARATOR})`
const captureIs = (capture: string) => `{ ${field(3)} -m str ${capture} }`

/**
 * In the frontend, once the request key is known, every redirect and refusal is behind, and the
 * split has drawn (`canaryRules`: the frontend's, render-canary.ts): the route's rewrite looked up as
 * its backend was (the drawn Service's, where its split's Services get their own); `txn.rwrest`, the path after the route's prefix
 * (`/x/y`, `/`, or empty for the prefix itself), cut by a backreference to the prefix the value
 * starts with; the capture the target asks for; the new path (`/` when it comes out empty).
 */
export function rewriteRules(set: SetVar, canaryRules: readonly string[]): string[] {
  const found = 'if { var(txn.rwcapture) -m found }'
  return [
    ...routeValueLookup(set, 'rewrite', MAPS),
    ...splitValueRules(set, 'rewrite', FILES.rewriteExactMap, canaryRules),
    set('rwrest', `'${field(1)},concat(${SEPARATOR},txn.path),regsub("^([^${SEPARATOR}]*)[${SEPARATOR}]\\1","")'`, 'if { var(txn.rewrite) -m found }'),
    set('rwcapture', 'var(txn.rwrest)', `if ${captureIs('rest')}`),
    set('rwcapture', 'var(txn.rwrest),regsub(^/,)', `if ${captureIs('tail')}`),
    set('rwcapture', `'var(txn.rwrest),regsub("^(/?).*","\\1")'`, `if ${captureIs('slash')}`),
    set('rwcapture', regexRewrite, `if ${captureIs(REGEX_CAPTURE)}`),
    // An HTTPRoute's ReplaceFullPath: the new path keeps nothing of the request's.
    set('rwcapture', 'str()', `if ${captureIs(NO_CAPTURE)}`),
    set('rwpath', `${field(2)},concat(,txn.rwcapture,)`, found),
    set('rwafter', field(4), found),
    set('rwpath', 'var(txn.rwpath),concat(,txn.rwafter,)', found),
    '    http-request set-path %[var(txn.rwpath)] if { var(txn.rwpath) -m reg ^/ }',
    '    http-request set-path / if { var(txn.rwpath) -m len 0 }',
    `    http-request set-header X-Forwarded-Prefix %[${field(5)}] if { ${field(5)} -m reg ^/ }`,
  ]
}
