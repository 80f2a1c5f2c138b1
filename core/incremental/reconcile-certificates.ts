import type { FileSet } from '../generation/file-set.ts'
import type { ClusterState } from '../model/cluster-state.ts'
import { resolveTlsSecret } from '../model/tls-secret.ts'
import { needReload, type Plan } from '../plan/plan.ts'
import { certificateFile, FILES, mapLineText } from '../render/files.ts'
import { certificateListLines, defaultCertificateFile, defaultCrtListEntry } from '../render/render-tls.ts'
import { clientCaFile, clientCertFile } from '../render/render-client-cert.ts'
import { clientCaPem } from '../model/client-cert.ts'
import type { HostTables } from './reconcile-hosts.ts'
import type { DefaultCertificate } from '../model/default-certificate.ts'
import { tlsListenerEntries, tlsWildcardListenerEntries } from '../render/render-misdirected.ts'

/**
 * A touched Secret's certificate: its crt-list lines (one for its hosts without client
 * certificates, one per CA the others ask of) in each list of `lists` (crtListsOf: the HTTPS
 * bind's, each HTTPS port of its own's, now or before) whose bind serves some of its hosts, and the
 * files they name, written while some host uses it and it resolves; removed otherwise. `formerCas`
 * are the CAs its hosts asked of before this change (reconcileHost), whose lines may be gone. A
 * changed certificate is hot swapped; a line that comes, goes or changes, or a changed CA bundle
 * (HAProxy reads CA files at a reload), reloads.
 */
export function reconcileCertificate(
  secret: string,
  state: ClusterState,
  tables: Pick<HostTables, 'hosts' | 'bySecret'>,
  formerCas: ReadonlySet<string>,
  lists: readonly string[],
  files: FileSet,
  plan: Plan,
): void {
  const hosts = tables.bySecret.members(secret)
  const [namespace = '', name] = secret.split('/')
  const resolved = hosts.length ? resolveTlsSecret(state, namespace, name) : undefined
  const configs = hosts.map((host) => tables.hosts.get(host) ?? { host })
  const wanted = resolved?.ok ? certificateListLines(secret, resolved.pem, configs, (ca) => clientCaPem(ca, state)) : undefined
  const cas = new Set(['', ...formerCas, ...[...(wanted?.lists.values() ?? [])].flatMap((lines) => [...lines.keys()])])
  for (const ca of cas) {
    const path = ca === '' ? certificateFile(secret) : clientCertFile(secret, ca)
    const lines = lists.map((list) => [list, wanted?.lists.get(list)?.get(ca)] as const)
    for (const [list, line] of lines)
      if (files.setEntry(list, path, line?.text)) needReload(plan, line ? 'the certificate list changed' : `certificate ${path} is no longer served`)
    if (lines.every(([, line]) => !line)) {
      files.setText(path, undefined)
      if (ca !== '') files.setText(clientCaFile(secret, ca), undefined)
      continue
    }
    const isNew = files.text(path) === undefined
    if (files.setText(path, wanted!.files.get(path)) && !isNew) plan.certificates.push(path)
    if (ca !== '') {
      const caPath = clientCaFile(secret, ca)
      const caIsNew = files.text(caPath) === undefined
      if (files.setText(caPath, wanted!.files.get(caPath)) && !caIsNew) needReload(plan, `the CA bundle ${caPath} changed (HAProxy reads CA files at a reload)`)
    }
  }
}

/**
 * The settings' default certificate: its file and a line in each crt-list of `lists` (the HTTPS
 * bind's and each HTTPS port of its own's) written while it resolves, and the line of the one it
 * replaces removed, as its line from the lists of `formerLists` no longer in `lists` (either
 * changes a list: a reload). A changed certificate under the same Secret is hot swapped.
 */
export function reconcileDefaultCertificate(
  before: string | undefined,
  after: DefaultCertificate,
  lists: readonly string[],
  formerLists: readonly string[],
  files: FileSet,
  plan: Plan,
): void {
  if (before !== undefined) {
    const replaced = before !== after.secret || !('pem' in after)
    const path = defaultCertificateFile(before)
    const gone = replaced ? new Set([...lists, ...formerLists]) : formerLists.filter((list) => !lists.includes(list))
    for (const list of gone) if (files.setEntry(list, path, undefined)) needReload(plan, 'the default certificate is no longer served')
    if (replaced) files.setText(path, undefined)
  }
  if (!('pem' in after)) return
  const entry = defaultCrtListEntry(after.secret)
  const isNew = files.text(entry.key) === undefined
  if (files.setText(entry.key, after.pem) && !isNew) plan.certificates.push(entry.key)
  for (const list of lists) if (files.setEntry(list, entry.key, entry.text)) needReload(plan, 'the default certificate changed')
}

/** The served HTTPS listeners' hostnames in `maps/tls-listeners.map` (render-misdirected.ts): a runtime map edit each. */
export function reconcileTlsListeners(before: readonly string[], after: readonly string[], files: FileSet): void {
  const gone = before.filter((hostname) => !after.includes(hostname))
  for (const [path, entries] of [
    [FILES.tlsListenersMap, tlsListenerEntries],
    [FILES.tlsWildcardListenersMap, tlsWildcardListenerEntries],
  ] as const) {
    for (const entry of entries(gone)) files.setEntry(path, entry.key, undefined)
    for (const entry of entries(after)) files.setEntry(path, entry.key, mapLineText(entry))
  }
}
