import type { ClusterModel } from '../model/derive-cluster.ts'
import { compareText } from '../model/routes.ts'
import { certificateFile, FILES, lines, type RenderedFiles } from './files.ts'

/**
 * One crt-list line per certificate, filtered by the hosts it serves (SNI). The first line is
 * also what a client without a matching SNI gets.
 */
export function renderTls(model: ClusterModel): RenderedFiles {
  const hostsBySecret = new Map<string, string[]>()
  for (const config of model.hosts.values()) {
    if (!config.tlsSecret || !model.certificates.has(config.tlsSecret)) continue
    const hosts = hostsBySecret.get(config.tlsSecret) ?? []
    hosts.push(config.host)
    hostsBySecret.set(config.tlsSecret, hosts)
  }
  const secrets = [...hostsBySecret.keys()].sort(compareText)
  const files: RenderedFiles = new Map()
  if (secrets.length === 0) return files
  files.set(FILES.crtList, lines(secrets.map((secret) => [certificateFile(secret), ...hostsBySecret.get(secret)!.sort(compareText)].join(' '))))
  for (const secret of secrets) files.set(certificateFile(secret), model.certificates.get(secret)!)
  return files
}
