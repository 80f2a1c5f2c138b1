import type { FileSet } from '../generation/file-set.ts'
import type { ClusterState } from '../model/cluster-state.ts'
import { resolveTlsSecret } from '../model/tls-secret.ts'
import { needReload, type Plan } from '../plan/plan.ts'
import { certificateFile, FILES } from '../render/files.ts'
import { crtListEntry, defaultCertificateFile, defaultCrtListEntry } from '../render/render-tls.ts'
import type { DefaultCertificate } from '../model/default-certificate.ts'
import type { SetIndex } from '../snapshot/set-index.ts'

/**
 * A touched Secret's certificate: written, with its crt-list line naming the hosts that use it,
 * while some host uses it and it resolves; removed otherwise. A changed certificate is hot
 * swapped; one that comes or goes changes the list, which HAProxy reloads for.
 */
export function reconcileCertificate(secret: string, state: ClusterState, hostsBySecret: SetIndex, files: FileSet, plan: Plan): void {
  const hosts = hostsBySecret.members(secret)
  const path = certificateFile(secret)
  const [namespace = '', name] = secret.split('/')
  const resolved = hosts.length ? resolveTlsSecret(state, namespace, name) : undefined
  if (!resolved?.ok) {
    if (files.setEntry(FILES.crtList, path, undefined)) needReload(plan, `certificate ${path} is no longer served`)
    files.setText(path, undefined)
    return
  }
  const isNew = files.text(path) === undefined
  if (files.setText(path, resolved.pem) && !isNew) plan.certificates.push(path)
  if (files.setEntry(FILES.crtList, path, crtListEntry(secret, hosts).text)) needReload(plan, 'the certificate list changed')
}

/**
 * The settings' default certificate: its file and the crt-list's first line written while it
 * resolves, and the line of the one it replaces removed (either changes the list: a reload). A
 * changed certificate under the same Secret is hot swapped.
 */
export function reconcileDefaultCertificate(before: string | undefined, after: DefaultCertificate, files: FileSet, plan: Plan): void {
  if (before !== undefined && (before !== after.secret || !('pem' in after))) {
    const path = defaultCertificateFile(before)
    if (files.setEntry(FILES.crtList, path, undefined)) needReload(plan, 'the default certificate is no longer served')
    files.setText(path, undefined)
  }
  if (!('pem' in after)) return
  const entry = defaultCrtListEntry(after.secret)
  const isNew = files.text(entry.key) === undefined
  if (files.setText(entry.key, after.pem) && !isNew) plan.certificates.push(entry.key)
  if (files.setEntry(FILES.crtList, entry.key, entry.text)) needReload(plan, 'the default certificate changed')
}
