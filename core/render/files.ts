/** One line or section of a large file, under the key that orders it and finds it again. */
export interface Entry {
  key: string
  text: string
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
 * Files that grow with the cluster are stored in chunks, and how many entries a chunk holds on
 * average: map lines are ~50 bytes and backend sections up to ~1 KiB, so chunks stay near 2 KiB.
 */
export const CHUNKED_FILES: ReadonlyMap<string, number> = new Map([
  [FILES.hostsMap, 32],
  [FILES.exactMap, 32],
  [FILES.prefixMap, 32],
  [FILES.redirectMap, 32],
  [FILES.hstsMap, 32],
  [FILES.appRootMap, 32],
  [FILES.wwwMap, 32],
  [FILES.locationExactMap, 32],
  [FILES.locationPrefixMap, 32],
  [FILES.timeoutExactMap, 32],
  [FILES.timeoutPrefixMap, 32],
  [FILES.bodySizeExactMap, 32],
  [FILES.bodySizePrefixMap, 32],
  [FILES.corsExactMap, 32],
  [FILES.corsPrefixMap, 32],
  [FILES.corsOriginsMap, 32],
  [FILES.rewriteExactMap, 32],
  [FILES.rewritePrefixMap, 32],
  [FILES.headersExactMap, 32],
  [FILES.headersPrefixMap, 32],
  [FILES.headerValuesMap, 32],
  [FILES.upstreamHostExactMap, 32],
  [FILES.upstreamHostPrefixMap, 32],
  [FILES.canaryExactMap, 32],
  [FILES.canaryPrefixMap, 32],
  [FILES.canaryValuesMap, 32],
  [FILES.clientCertMap, 32],
  [FILES.limitExactMap, 32],
  [FILES.limitPrefixMap, 32],
  [FILES.canaryPatternsMap, 32],
  [FILES.externalAuthExactMap, 32],
  [FILES.externalAuthPrefixMap, 32],
  [FILES.pathRegexMap, 32],
  [FILES.rewriteRegexMap, 32],
  [FILES.clientCnMap, 32],
  [FILES.splitExactMap, 32],
  [FILES.splitPrefixMap, 32],
  [FILES.conditionMap, 32],
  [FILES.conditionKeysMap, 32],
  [FILES.conditionRegexMap, 32],
  [FILES.wildcardHostsMap, 32],
  [FILES.tlsListenersMap, 32],
  [FILES.tlsWildcardListenersMap, 32],
  [FILES.mirrorExactMap, 32],
  [FILES.mirrorPrefixMap, 32],
  [FILES.fallThroughMap, 32],
  [FILES.backends, 4],
  [FILES.crtList, 16],
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
export type Layout = Map<string, string | Entry[]>

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
  for (const [path, content] of layout) files.set(path, typeof content === 'string' ? content : content.map((entry) => entry.text).join(''))
  return files
}
