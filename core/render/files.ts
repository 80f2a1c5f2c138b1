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
  defaultMap: 'maps/default.map',
  crtList: 'tls/crt-list.txt',
} as const

export function certificateFile(secret: string): string {
  return `tls/${secret.replace('/', '_')}.pem`
}

export function lines(rows: Iterable<string>): string {
  let text = ''
  for (const row of rows) text += `${row}\n`
  return text
}
