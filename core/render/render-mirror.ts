import type { HostConfig, Route } from '../model/derive-host.ts'
import { FILES } from './files.ts'
import { MIRROR_ACTION, MIRROR_BODY_BOUND, MIRROR_URI_VARIABLE } from './mirror-lua.ts'
import { routeValueEntries, routeValueLookup, type SetVar, type AddEntry } from './route-keys.ts'

/**
 * RequestMirror and ingress-nginx's mirror-target: a route's mirrors (each a Service's backend and
 * the share of requests it is copied, or a URL) are one map value the shipped Lua reads at request time (mirror-lua.ts), so a changed
 * share, or another Service HAProxy has a backend for, is a runtime map edit; the rules and the
 * Lua are the same for every cluster, so the first mirror needs no reload but for its backend.
 */

/** The Lua file every generation ships and loads (relative to the configuration directory). */
export const MIRROR_LUA_FILE = 'lua/mirror.lua'

export type MirrorMap = typeof FILES.mirrorExactMap | typeof FILES.mirrorPrefixMap

const MIRROR_MAPS = { exact: FILES.mirrorExactMap, prefix: FILES.mirrorPrefixMap } as const

/** What a route of a host with mirrors has when it has none: never a backend name, which starts with a letter or digit. */
const NONE = '-'

/** The mirror entries of one host, keyed as the route maps key its routes; every route of such a host has one, so a longer path never takes a shorter one's mirrors. */
export function mirrorEntries(config: HostConfig, add: AddEntry<MirrorMap>): void {
  routeValueEntries(add, config.host, config.routes, MIRROR_MAPS, mirrorValue, NONE)
}

/**
 * A route's mirrors, separated by `,`: `BACKEND|NUMERATOR|DENOMINATOR` per Service (an HTTPRoute's
 * RequestMirror; backend names hold neither), `URL|1|1|HOST|on` or `…|off` for a mirror-target
 * (its parser refuses `,`, `|` and spaces; the Lua tells the two by the URL's scheme).
 */
function mirrorValue({ mirrors, urlMirror }: Pick<Route, 'mirrors' | 'urlMirror'>): string | undefined {
  // Asked of every route of every host, and most have no mirror: past this, there is at least one value.
  if (!mirrors?.length && !urlMirror) return undefined
  const values = (mirrors ?? []).map(({ backendName, numerator, denominator }) => `${backendName}|${numerator}|${denominator}`)
  if (urlMirror) values.push(`${urlMirror.url}|1|1|${urlMirror.host}|${urlMirror.body ? 'on' : 'off'}`)
  return values.join(',')
}

/**
 * In the frontend, once the request key is known: the route's mirrors, looked up as its backend
 * was, and the request's path and query as the client sent them (NGINX's `$request_uri` of a
 * mirror-target, which a rewrite-target later in the frontend does not change).
 */
export function mirrorLookupRules(set: SetVar): string[] {
  return [...routeValueLookup(set, 'mirror', MIRROR_MAPS), set(MIRROR_URI_VARIABLE, 'pathq', `if ${MIRRORED}`)]
}

const MIRRORED = '{ var(txn.mirror) -m reg ^[a-z0-9] }'

/** A route whose only mirror is a URL's without the body (`…|off`, which a Service's `backend|n|d` never ends with): nothing to wait for. */
const WITHOUT_BODY = '{ var(txn.mirror) -m reg ^[^,]*[|]off$ }'

/**
 * Last before the backend is chosen, so the copy is the request the route's Service is sent: its
 * body waited for (up to MIRROR_BODY_BOUND bytes, as long as NGINX's client_body_timeout waits by
 * default) unless no copy carries it, then the copies sent by the Lua's tasks, the action returning at once.
 */
export const MIRROR_RULES: readonly string[] = [
  `    http-request wait-for-body time 60s at-least ${MIRROR_BODY_BOUND} if ${MIRRORED} !${WITHOUT_BODY}`,
  `    http-request lua.${MIRROR_ACTION} if ${MIRRORED}`,
]
