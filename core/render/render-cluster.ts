import { trustedProxies } from '../model/access-group.ts'
import type { ClusterModel } from '../model/derive-cluster.ts'
import { compareText } from '../compare-text.ts'
import { FILES, madeEntry, portCrtList, type Entry, type Layout, type LayoutEntry } from './files.ts'
import { renderBackend } from './render-backends.ts'
import { accessFiles, TRUSTED_PROXIES_FILE, trustedProxiesFile } from './render-access.ts'
import { authRules, USERLISTS_FILE, userlistsFile } from './render-auth.ts'
import { limitExemptFiles, limitExemptRules } from './render-limits.ts'
import { renderFrontend } from './render-frontend.ts'
import { unionOfRules } from '../model/route-headers.ts'
import { unionOfCanaryRules } from '../model/canary.ts'
import { type ClusterOptions, proxyProtocolSources } from '../model/settings.ts'
import { renderGlobal } from './render-global.ts'
import { SHIPPED_LUA } from './shipped-lua.ts'
import { defaultMap, HOST_MAPS, renderHostMaps, sortEntries } from './render-maps.ts'
import { tlsListenerEntries, tlsWildcardListenerEntries } from './render-misdirected.ts'
import { certificateListLines, crtListsOf, defaultCrtListEntry, hostsBySecret } from './render-tls.ts'

export type RenderOptions = Pick<ClusterOptions, 'httpBind' | 'httpsBind' | 'gatewayPorts'>

/** Every file of a generation, from the model alone: the same model always gives the same bytes. */
export function renderLayout(model: ClusterModel, options: RenderOptions): Layout {
  const secrets = hostsBySecret(model)
  const fallback = model.defaultCertificate
  // Each bind's crt-list (the HTTPS bind's, each HTTPS port of its own's): its certificates' lines, the default certificate's in each.
  const crtLists = new Map<string, Entry[]>()
  const certificateFiles = new Map<string, string>()
  for (const [secret, hosts] of secrets) {
    const configs = hosts.map((host) => model.hosts.get(host)!)
    const { lists, files } = certificateListLines(secret, model.certificates.get(secret)!, configs, (ca) => model.clientCas.get(ca))
    for (const [list, lines] of lists) addEntries(crtLists, list, lines.values())
    for (const [path, text] of files) certificateFiles.set(path, text)
  }
  if (fallback) {
    const entry = defaultCrtListEntry(fallback.secret)
    for (const list of crtListsOf(options.gatewayPorts)) addEntries(crtLists, list, [entry])
    certificateFiles.set(entry.key, fallback.pem)
  }
  const maps = renderHostMaps(model)
  const proxies = trustedProxies(model.settings)
  const accessGroups = [...model.accessGroups.keys()].sort(compareText)
  const layout: Layout = new Map<string, string | LayoutEntry[]>([
    [FILES.global, renderGlobal(model.settings)],
    ...SHIPPED_LUA,
    [
      FILES.frontend,
      renderFrontend({
        ...options,
        tls: crtLists.has(FILES.crtList),
        tlsPorts: (options.gatewayPorts ?? []).filter((own) => crtLists.has(portCrtList(own.port))).map((own) => own.port),
        defaultCertificate: fallback !== undefined,
        clientCerts: maps[FILES.clientCertMap].length > 0,
        accessGroups,
        trustedProxies: proxies.length > 0,
        authRules: authRules(groupsByName(model)),
        headerRules: unionOfRules(model.headerRules.values()),
        canaryRules: unionOfCanaryRules(model.canaryRules.values()),
        limitExemptRules: limitExemptRules(groupsByName(model)),
        misdirectedRequests: model.tlsListeners.length > 0,
        http2: model.settings['use-http2'],
        proxyProtocolFrom: proxyProtocolSources(model.settings),
        fallThrough: maps[FILES.fallThroughMap].length > 0,
      }),
    ],
    [FILES.backends, sortEntries([...model.backends.values()].map((backend) => madeEntry(backend.name, backend, renderBackend)))],
    ...HOST_MAPS.map((map) => [map, maps[map]] as const),
    [FILES.defaultMap, defaultMap(model.defaultBackend, model.defaultAccess)],
    [FILES.tlsListenersMap, tlsListenerEntries(model.tlsListeners)],
    [FILES.tlsWildcardListenersMap, tlsWildcardListenerEntries(model.tlsListeners)],
  ])
  for (const [list, entries] of crtLists) layout.set(list, sortEntries(entries))
  for (const [path, text] of certificateFiles) layout.set(path, text)
  for (const group of model.accessGroups.values()) for (const [path, text] of [...accessFiles(group), ...limitExemptFiles(group)]) layout.set(path, text)
  if (proxies.length > 0) layout.set(TRUSTED_PROXIES_FILE, trustedProxiesFile(proxies))
  for (const [path, pem] of model.caFiles) layout.set(path, pem)
  const userlists = userlistsFile(model.accessGroups.values())
  if (userlists !== undefined) layout.set(USERLISTS_FILE, userlists)
  return new Map([...layout].sort(([a], [b]) => compareText(a, b)))
}

/** Entries added to a list of `lists` (one entry per line, however many: no copy of the list so far). */
function addEntries(lists: Map<string, Entry[]>, list: string, entries: Iterable<Entry>): void {
  const listed = lists.get(list)
  if (listed) listed.push(...entries)
  else lists.set(list, [...entries])
}

/** The access groups in name order: the order the frontend's rules are written in, incremental or not. */
function groupsByName(model: ClusterModel) {
  return [...model.accessGroups.values()].sort((a, b) => compareText(a.name, b.name))
}
