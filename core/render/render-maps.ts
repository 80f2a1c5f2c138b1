import type { ClusterModel } from '../model/derive-cluster.ts'
import type { HostConfig } from '../model/derive-host.ts'
import { compareText } from '../model/routes.ts'
import { FILES, lines, type RenderedFiles } from './files.ts'

/** A map file's lines: `key value`, sorted by key (keys never hold whitespace: they are validated hosts and paths). */
export function renderMap(entries: Iterable<readonly [string, string]>): string {
  return lines([...entries].sort(([a], [b]) => compareText(a, b)).map(([key, value]) => `${key} ${value}`))
}

/** The map entries one host contributes, keyed by map file. A host's keys all start with its name, or with `/` for `''`. */
export function hostMapEntries(config: HostConfig): Record<'hosts' | 'exact' | 'prefix' | 'redirect', [string, string][]> {
  const { host } = config
  const exact = new Map<string, string>()
  const prefix: [string, string][] = []
  for (const route of config.routes) if (route.match === 'Exact') exact.set(host + route.path, route.backendName)
  for (const route of config.routes) {
    if (route.match !== 'Prefix') continue
    if (route.path === '/') {
      prefix.push([`${host}/`, route.backendName])
      continue
    }
    if (!exact.has(host + route.path)) exact.set(host + route.path, route.backendName)
    prefix.push([`${host}${route.path}/`, route.backendName])
  }
  const routed = host !== '' && config.routes.length > 0
  return {
    hosts: routed ? [[host, host]] : [],
    exact: [...exact],
    prefix,
    redirect: config.redirectToHttps ? [[host, '1']] : [],
  }
}

export function renderMaps(model: ClusterModel): RenderedFiles {
  const entries = { hosts: [] as [string, string][], exact: [] as [string, string][], prefix: [] as [string, string][], redirect: [] as [string, string][] }
  for (const config of model.hosts.values()) {
    const host = hostMapEntries(config)
    for (const kind of ['hosts', 'exact', 'prefix', 'redirect'] as const) entries[kind].push(...host[kind])
  }
  return new Map([
    [FILES.hostsMap, renderMap(entries.hosts)],
    [FILES.exactMap, renderMap(entries.exact)],
    [FILES.prefixMap, renderMap(entries.prefix)],
    [FILES.redirectMap, renderMap(entries.redirect)],
    [FILES.defaultMap, renderMap(model.defaultBackend ? [['default', model.defaultBackend]] : [])],
  ])
}
