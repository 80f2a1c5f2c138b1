/** One line or section of a large file, under the key that orders it and finds it again. */
export interface Entry {
  key: string
  text: string
}

/**
 * A map file's line, `key value`: its text is made when the file is joined or cut (entryText), not
 * kept beside its key and value (a full rebuild holds ~160,000 lines; each kept text was three more
 * strings). A plain object made by a literal, as Entry is: V8 allocates those of a literal whose objects
 * survive in the old generation directly, where a class's instances were each copied twice by scavenges.
 */
export interface MapLine {
  key: string
  value: string
}

/**
 * A section whose text is made when its file is joined or cut, from what `make` holds: a backend's,
 * from its model. A full rebuild keeps the backends it renders; their 10,000 sections' text, kept
 * beside them until the file is cut, was 8 MB more for scavenges to copy twice.
 */
export interface MadeEntry {
  key: string
  /** What the text is made from (a backend), given to `make` (renderBackend): one function for every entry, not a closure for each. */
  from: unknown
  make: (from: never) => string
}

/** A section made from `from` by `make` when its file is joined or cut. */
export function madeEntry<T>(key: string, from: T, make: (from: T) => string): MadeEntry {
  return { key, from, make }
}

/** A line or section of a large file, as kept in a layout. */
export type LayoutEntry = Entry | MapLine | MadeEntry

/** The text of a line or section of a layout (a made one's made again each time it is asked; madeEntry paired its `from` and `make`). */
export function entryText(entry: LayoutEntry): string {
  return 'value' in entry ? mapLineText(entry) : 'text' in entry ? entry.text : (entry.make as (from: unknown) => string)(entry.from)
}

/** A map line's text, as HAProxy reads it. */
export function mapLineText({ key, value }: MapLine): string {
  return `${key} ${value}\n`
}

/** The rendered configuration: relative path → file content. Paths use `/` and never `..`. */
export type RenderedFiles = Map<string, string>

/** The files HAProxy reads, by role; `haproxy -f DIR` loads the `*.cfg` ones in this (lexical) order. */
export const FILES = {
  global: '00-global.cfg',
  frontend: '10-frontend.cfg',
  backends: '20-backends.cfg',
  hostsMap: 'maps/hosts.map',
  exactMap: 'maps/exact.map',
  prefixMap: 'maps/prefix.map',
  redirectMap: 'maps/redirect.map',
  hstsMap: 'maps/hsts.map',
  appRootMap: 'maps/app-root.map',
  wwwMap: 'maps/www.map',
  locationExactMap: 'maps/location-exact.map',
  locationPrefixMap: 'maps/location-prefix.map',
  timeoutExactMap: 'maps/timeout-exact.map',
  timeoutPrefixMap: 'maps/timeout-prefix.map',
  bodySizeExactMap: 'maps/body-size-exact.map',
  bodySizePrefixMap: 'maps/body-size-prefix.map',
  corsExactMap: 'maps/cors-exact.map',
  corsPrefixMap: 'maps/cors-prefix.map',
  corsOriginsMap: 'maps/cors-origins.map',
  rewriteExactMap: 'maps/rewrite-exact.map',
  rewritePrefixMap: 'maps/rewrite-prefix.map',
  headersExactMap: 'maps/headers-exact.map',
  headersPrefixMap: 'maps/headers-prefix.map',
  headerValuesMap: 'maps/header-values.map',
  upstreamHostExactMap: 'maps/upstream-host-exact.map',
  upstreamHostPrefixMap: 'maps/upstream-host-prefix.map',
  canaryExactMap: 'maps/canary-exact.map',
  canaryPrefixMap: 'maps/canary-prefix.map',
  canaryValuesMap: 'maps/canary-values.map',
  clientCertMap: 'maps/client-cert.map',
  limitExactMap: 'maps/limit-exact.map',
  limitPrefixMap: 'maps/limit-prefix.map',
  canaryPatternsMap: 'maps/canary-patterns.map',
  externalAuthExactMap: 'maps/external-auth-exact.map',
  externalAuthPrefixMap: 'maps/external-auth-prefix.map',
  pathRegexMap: 'maps/path-regex.map',
  rewriteRegexMap: 'maps/rewrite-regex.map',
  clientCnMap: 'maps/client-cn.map',
  splitExactMap: 'maps/split-exact.map',
  splitPrefixMap: 'maps/split-prefix.map',
  conditionMap: 'maps/condition.map',
  conditionKeysMap: 'maps/condition-keys.map',
  conditionRegexMap: 'maps/condition-regex.map',
  wildcardHostsMap: 'maps/wildcard-hosts.map',
  defaultMap: 'maps/default.map',
  tlsListenersMap: 'maps/tls-listeners.map',
  tlsWildcardListenersMap: 'maps/tls-wildcard-listeners.map',
  mirrorExactMap: 'maps/mirror-exact.map',
  mirrorPrefixMap: 'maps/mirror-prefix.map',
  fallThroughMap: 'maps/fall-through.map',
  crtList: 'tls/crt-list.txt',
} as const

/**
 * Map lines a chunk holds on average. Lines are ~75 bytes, so a chunk is ~3.5 KiB. Chunks are cut
 * narrowly (isNarrowBoundary: 48 ± 17 lines), and the chunk an edit lands in holds ~55 lines: a
 * one-Ingress change rewrites 6–14 KB of chunks at 20,000 Ingresses. Cut geometrically, 128 lines
 * made that chunk ~270 lines (28–61 KB a change), and 32 lines made 3,400 chunks more for a full
 * resync of 20,000 Ingresses (a file each on disk).
 */
const MAP_LINES = 48

/**
 * Files that grow with the cluster are stored in chunks, and how many entries a chunk holds on
 * average, cut narrowly: map lines MAP_LINES, backend sections (up to ~1 KiB) 16 (an endpoint
 * change rewrites ~12.6 KB; 8 cut geometrically, 10.6 KB, for 400 chunks more at 20,000
 * Ingresses), crt-list lines (~60 bytes) 64.
 */
export const CHUNKED_FILES: ReadonlyMap<string, number> = new Map([
  [FILES.hostsMap, MAP_LINES],
  [FILES.exactMap, MAP_LINES],
  [FILES.prefixMap, MAP_LINES],
  [FILES.redirectMap, MAP_LINES],
  [FILES.hstsMap, MAP_LINES],
  [FILES.appRootMap, MAP_LINES],
  [FILES.wwwMap, MAP_LINES],
  [FILES.locationExactMap, MAP_LINES],
  [FILES.locationPrefixMap, MAP_LINES],
  [FILES.timeoutExactMap, MAP_LINES],
  [FILES.timeoutPrefixMap, MAP_LINES],
  [FILES.bodySizeExactMap, MAP_LINES],
  [FILES.bodySizePrefixMap, MAP_LINES],
  [FILES.corsExactMap, MAP_LINES],
  [FILES.corsPrefixMap, MAP_LINES],
  [FILES.corsOriginsMap, MAP_LINES],
  [FILES.rewriteExactMap, MAP_LINES],
  [FILES.rewritePrefixMap, MAP_LINES],
  [FILES.headersExactMap, MAP_LINES],
  [FILES.headersPrefixMap, MAP_LINES],
  [FILES.headerValuesMap, MAP_LINES],
  [FILES.upstreamHostExactMap, MAP_LINES],
  [FILES.upstreamHostPrefixMap, MAP_LINES],
  [FILES.canaryExactMap, MAP_LINES],
  [FILES.canaryPrefixMap, MAP_LINES],
  [FILES.canaryValuesMap, MAP_LINES],
  [FILES.clientCertMap, MAP_LINES],
  [FILES.limitExactMap, MAP_LINES],
  [FILES.limitPrefixMap, MAP_LINES],
  [FILES.canaryPatternsMap, MAP_LINES],
  [FILES.externalAuthExactMap, MAP_LINES],
  [FILES.externalAuthPrefixMap, MAP_LINES],
  [FILES.pathRegexMap, MAP_LINES],
  [FILES.rewriteRegexMap, MAP_LINES],
  [FILES.clientCnMap, MAP_LINES],
  [FILES.splitExactMap, MAP_LINES],
  [FILES.splitPrefixMap, MAP_LINES],
  [FILES.conditionMap, MAP_LINES],
  [FILES.conditionKeysMap, MAP_LINES],
  [FILES.conditionRegexMap, MAP_LINES],
  [FILES.wildcardHostsMap, MAP_LINES],
  [FILES.tlsListenersMap, MAP_LINES],
  [FILES.tlsWildcardListenersMap, MAP_LINES],
  [FILES.mirrorExactMap, MAP_LINES],
  [FILES.mirrorPrefixMap, MAP_LINES],
  [FILES.fallThroughMap, MAP_LINES],
  [FILES.backends, 16],
  [FILES.crtList, 64],
])

/**
 * The crt-list of an HTTPS port of its own (the cluster's gatewayPorts): the certificates of the
 * listeners on that port, by SNI, so that a name given another certificate on another port gets
 * its own on each; shaped as FILES.crtList is.
 */
export const portCrtList = (port: number): string => `tls/crt-list-${port}.txt`

/** The crt-list a host's certificate line goes in: the HTTPS bind's (`port` undefined), or its port's own. */
export const crtListOf = (port: number | undefined): string => (port === undefined ? FILES.crtList : portCrtList(port))

export const PORT_CRT_LIST = /^tls\/crt-list-\d+\.txt$/

/** A generation's files before they are cut: small ones as text, large ones as sorted entries. */
export type Layout = Map<string, string | LayoutEntry[]>

/** An object (`namespace/name`) as one word of a file path, `namespace_name`: namespaces and names never hold `_`, so secretOfCertificateFile reads it back. */
export const fileStem = (ref: string) => ref.replace('/', '_')

export function certificateFile(secret: string): string {
  return `tls/${fileStem(secret)}.pem`
}

/** The Secret (`namespace/name`) a certificate file is rendered from (in `tls/` or a directory of it): its fileStem. */
export function secretOfCertificateFile(path: string): string | undefined {
  return /^tls\/(?:[^/]+\/)?([a-z0-9-]+)_([a-z0-9.-]+)\.pem$/.exec(path)?.slice(1).join('/')
}

/** Each row and a newline, as one flat string: `+=` would keep a chain of partial strings alive per row. */
export function lines(rows: Iterable<string>): string {
  const all = [...rows]
  if (all.length === 0) return ''
  all.push('')
  return all.join('\n')
}

export function flattenLayout(layout: Layout): RenderedFiles {
  const files: RenderedFiles = new Map()
  for (const [path, content] of layout) files.set(path, contentText(content))
  return files
}

/** A layout file's whole text: as it is, or its entries' texts joined. */
export function contentText(content: string | readonly LayoutEntry[]): string {
  return typeof content === 'string' ? content : content.map(entryText).join('')
}
