import type { ClusterModel } from '../model/derive-cluster.ts'
import { compareText } from '../model/routes.ts'
import { certificateFile, type Entry } from './files.ts'

/**
 * One crt-list line per certificate, filtered by the hosts it serves (SNI), keyed by the
 * certificate's path (its first word). Without a default certificate the HTTPS bind is
 * `strict-sni`: a name no line lists, or no name at all, ends the handshake, so that no tenant's
 * certificate is shown for another's name.
 */
export function crtListEntry(secret: string, hosts: Iterable<string>): Entry {
  const path = certificateFile(secret)
  return { key: path, text: `${[path, ...[...hosts].sort(compareText)].join(' ')}\n` }
}

/**
 * Where the default certificate (settings `default-ssl-certificate`) is written: a directory whose
 * name sorts before every namespace (they begin with a letter or digit), so that its line is the
 * crt-list's first, which HAProxy serves to every name no line lists.
 */
export function defaultCertificateFile(secret: string): string {
  return `tls/-default/${secret.replace('/', '_')}.pem`
}

/**
 * The default certificate's line. Its filter is a name no client can ask for (an Ingress host is a
 * DNS name, which holds no `_`): were its own names indexed, they would compete with the
 * certificates of the Ingresses that claim them.
 */
export function defaultCrtListEntry(secret: string): Entry {
  const path = defaultCertificateFile(secret)
  return { key: path, text: `${path} ${DEFAULT_ONLY_FILTER}\n` }
}

const DEFAULT_ONLY_FILTER = 'hapedge_default_certificate'

/** The secrets whose certificate is served, with the hosts each serves. */
export function hostsBySecret(model: ClusterModel): Map<string, string[]> {
  const bySecret = new Map<string, string[]>()
  for (const config of model.hosts.values()) {
    if (!config.tlsSecret || !model.certificates.has(config.tlsSecret)) continue
    const hosts = bySecret.get(config.tlsSecret) ?? []
    hosts.push(config.host)
    bySecret.set(config.tlsSecret, hosts)
  }
  return bySecret
}
