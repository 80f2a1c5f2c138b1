import type { ClusterModel } from '../model/derive-cluster.ts'
import { compareText } from '../model/routes.ts'
import { certificateFile, type Entry } from './files.ts'

/**
 * One crt-list line per certificate, filtered by the hosts it serves (SNI), keyed by the
 * certificate's path (its first word). The first line is also what a client without a
 * matching SNI gets.
 */
export function crtListEntry(secret: string, hosts: Iterable<string>): Entry {
  const path = certificateFile(secret)
  return { key: path, text: `${[path, ...[...hosts].sort(compareText)].join(' ')}\n` }
}

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
