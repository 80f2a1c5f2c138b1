import type { ClusterModel } from '../model/derive-cluster.ts'
import type { HostConfig, Route } from '../model/derive-host.ts'
import { compareText } from '../compare-text.ts'
import { FILES, mapLineText, type LayoutEntry, type MapLine } from './files.ts'
import { redirectEntries } from './render-redirects.ts'
import { timeoutEntries } from './render-timeouts.ts'
import { bodySizeEntries } from './render-body-size.ts'
import { corsEntries } from './render-cors.ts'
import { rewriteEntries } from './render-rewrites.ts'
import { headerEntries } from './render-headers.ts'
import { forEachRouteKey, type AddEntry } from './route-keys.ts'
import { upstreamHostEntries } from './render-upstream-host.ts'
import { canaryEntries } from './render-canary.ts'
import { clientCertEntries } from './render-client-cert.ts'
import { limitEntries } from './render-limits.ts'
import { mapTarget } from './render-access.ts'
import { externalAuthEntries } from './render-external-auth.ts'
import { regexPathEntries } from './render-regex-paths.ts'
import { clientCnEntries } from './render-client-cn.ts'
import { splitEntries } from './render-split.ts'
import { conditionEntries } from './render-conditions.ts'
import { wildcardHostEntries } from './render-wildcard-hosts.ts'
import { mirrorEntries } from './render-mirror.ts'
import { fallThroughEntries } from './render-fall-through.ts'

export const HOST_MAPS = [
  FILES.hostsMap,
  FILES.exactMap,
  FILES.prefixMap,
  FILES.redirectMap,
  FILES.hstsMap,
  FILES.appRootMap,
  FILES.wwwMap,
  FILES.locationExactMap,
  FILES.locationPrefixMap,
  FILES.timeoutExactMap,
  FILES.timeoutPrefixMap,
  FILES.bodySizeExactMap,
  FILES.bodySizePrefixMap,
  FILES.corsExactMap,
  FILES.corsPrefixMap,
  FILES.corsOriginsMap,
  FILES.rewriteExactMap,
  FILES.rewritePrefixMap,
  FILES.headersExactMap,
  FILES.headersPrefixMap,
  FILES.headerValuesMap,
  FILES.upstreamHostExactMap,
  FILES.upstreamHostPrefixMap,
  FILES.canaryExactMap,
  FILES.canaryPrefixMap,
  FILES.canaryValuesMap,
  FILES.clientCertMap,
  FILES.canaryPatternsMap,
  FILES.externalAuthExactMap,
  FILES.externalAuthPrefixMap,
  FILES.limitExactMap,
  FILES.limitPrefixMap,
  FILES.pathRegexMap,
  FILES.rewriteRegexMap,
  FILES.clientCnMap,
  FILES.splitExactMap,
  FILES.splitPrefixMap,
  FILES.conditionMap,
  FILES.conditionKeysMap,
  FILES.conditionRegexMap,
  FILES.wildcardHostsMap,
  FILES.mirrorExactMap,
  FILES.mirrorPrefixMap,
  FILES.fallThroughMap,
] as const
export type HostMap = (typeof HOST_MAPS)[number]

/** A host's map entries by map file: only the maps it has entries for. */
export type HostMapEntries = Partial<Record<HostMap, MapLine[]>>

/** A map line: `key value` (keys never hold whitespace: they are validated hosts and paths). */
export function mapEntry(key: string, value: string): MapLine {
  return { key, value }
}

export function sortEntries<E extends LayoutEntry>(entries: E[]): E[] {
  return entries.sort((a, b) => compareText(a.key, b.key))
}

/** What adds a host's entries of each kind to its maps, in this order. */
const HOST_ENTRIES: readonly ((config: HostConfig, add: AddEntry<HostMap>) => void)[] = [
  redirectEntries,
  timeoutEntries,
  bodySizeEntries,
  corsEntries,
  rewriteEntries,
  headerEntries,
  upstreamHostEntries,
  canaryEntries,
  clientCertEntries,
  externalAuthEntries,
  limitEntries,
  regexPathEntries,
  clientCnEntries,
  splitEntries,
  conditionEntries,
  wildcardHostEntries,
  mirrorEntries,
  fallThroughEntries,
]

/**
 * The map entries one host contributes, by map file, added to `entries` (the full rebuild's for
 * every host, so no record is made per host). A host's keys start with its name (or `/` for `''`), but for
 * its from-to-www name, which no other host's keys hold (render-redirects.ts), its canary patterns,
 * regular expressions that begin with it (render-canary.ts), and its regex routes, which begin with it after `^` (render-regex-paths.ts).
 */
export function hostMapEntries(config: HostConfig | undefined, entries: HostMapEntries = {}): HostMapEntries {
  if (!config) return entries
  const { host } = config
  const add = adderTo(entries)
  forEachRouteKey(host, config.routes, (map, key, route) =>
    add(map === 'exact' ? FILES.exactMap : FILES.prefixMap, key, route.chain && key !== route.conditionKey ? route.chain.id : routeTarget(route)),
  )
  if (host !== '' && config.routes.length > 0) add(FILES.hostsMap, host, host)
  if (config.alias) add(FILES.hostsMap, host, config.alias)
  for (const entriesOf of HOST_ENTRIES) entriesOf(config, add)
  return entries
}

/**
 * The AddEntry that puts a line in `entries`: a map's list is made when the host has an entry for
 * it (most hosts have a few of the forty-odd maps). Made by a function, not a named closure: tsx
 * names each named closure as it is made.
 */
function adderTo(entries: HostMapEntries): AddEntry<HostMap> {
  return (map, key, value) => {
    ;(entries[map] ??= []).push(mapEntry(key, value))
  }
}

function routeTarget(route: Route): string {
  return mapTarget(route.backendName, route.access)
}

/** The default map: the catch-all's backend, with its Ingress's access group when it has source ranges. */
export function defaultMap(backend: string | undefined, access?: string): string {
  return backend ? mapLineText(mapEntry('default', mapTarget(backend, access))) : ''
}

export function renderHostMaps(model: ClusterModel): Record<HostMap, MapLine[]> {
  const all = noEntries()
  for (const config of model.hosts.values()) hostMapEntries(config, all)
  for (const map of HOST_MAPS) sortEntries(all[map])
  return all
}

function noEntries(): Record<HostMap, MapLine[]> {
  const entries = {} as Record<HostMap, MapLine[]>
  for (const map of HOST_MAPS) entries[map] = []
  return entries
}
