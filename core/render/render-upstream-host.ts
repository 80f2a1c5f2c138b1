import type { HostConfig } from '../model/derive-host.ts'
import { FILES } from './files.ts'
import { routeValueLookup, type SetVar, type AddEntry } from './route-keys.ts'
import { splitValueEntries, splitValueRules } from './render-split-values.ts'

/**
 * upstream-vhost: the Host header a route's Service is sent, a map value HAProxy reads at request
 * time (so a change is a runtime map edit), set once routing, access checks and the Ingress's own
 * headers have read the request as the client sent it.
 */

export type UpstreamHostMap = typeof FILES.upstreamHostExactMap | typeof FILES.upstreamHostPrefixMap

const UPSTREAM_HOST_MAPS = { exact: FILES.upstreamHostExactMap, prefix: FILES.upstreamHostPrefixMap } as const

/** What a route of a host with an upstream Host has when it has none itself: never a DNS name, which starts with a letter or digit. */
const NONE = '-'

/** The upstream Host entries of one host, keyed as the route maps key its routes; every route of such a host has one, so a longer path never takes a shorter one's. */
export function upstreamHostEntries(config: HostConfig, add: AddEntry<UpstreamHostMap>): void {
  // A split's Service whose backendRef names a hostname gets its own (render-split-values.ts).
  splitValueEntries(add, config.host, config.routes, UPSTREAM_HOST_MAPS, (route, place) => (place ? place.upstreamHost : route.upstreamHost), NONE)
}

/** In the frontend, once the request key is known: the route's upstream Host, looked up as its backend was. */
export function upstreamHostLookupRules(set: SetVar): string[] {
  return [...routeValueLookup(set, 'upstreamhost', UPSTREAM_HOST_MAPS)]
}

/**
 * Last before the backend is chosen: the Host header replaced where the route names one (the drawn Service's, where its split's
 * Services get their own: `canaryRules`, the frontend's, render-canary.ts).
 */
export function upstreamHostRules(set: SetVar, canaryRules: readonly string[]): string[] {
  return [
    ...splitValueRules(set, 'upstreamhost', FILES.upstreamHostExactMap, canaryRules),
    '    http-request set-header Host %[var(txn.upstreamhost)] if { var(txn.upstreamhost) -m reg ^[a-z0-9] }',
  ]
}
