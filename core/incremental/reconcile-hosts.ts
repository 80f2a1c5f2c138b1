import type { FileSet } from '../generation/file-set.ts'
import { routesBackends, type RouteBackend, type RoutedTo } from '../model/route-backends.ts'
import type { ClusterState } from '../model/cluster-state.ts'
import { deriveHost, type HostConfig } from '../model/derive-host.ts'
import type { Rejection } from '../model/rejection.ts'
import type { Settings } from '../model/settings.ts'
import type { Plan } from '../plan/plan.ts'
import { mapLineText, type MapLine } from '../render/files.ts'
import { HOST_MAPS, hostMapEntries } from '../render/render-maps.ts'
import type { SetIndex } from '../snapshot/set-index.ts'
import type { Table } from '../snapshot/table.ts'
import type { BackendUses } from './reconcile-backends.ts'
import { MissedNodes } from '../tree/missed-nodes.ts'

/** The snapshot's tables a host is derived into. */
export interface HostTables {
  hosts: Table<HostConfig>
  rejections: Table<Rejection[]>
  bySecret: SetIndex
}

/**
 * A touched host derived again: its config and rejections stored, its map entries replaced, its
 * routes' backends used and its old ones released, its TLS Secret indexed. The Secrets it names,
 * before and after, are `touchedSecrets` (their crt-list lines list it), with the CA its clients were asked of before (`formerCas`).
 */
export function reconcileHost(
  host: string,
  state: ClusterState,
  settings: Settings,
  tables: HostTables,
  backends: BackendUses,
  files: FileSet,
  touchedSecrets: Set<string>,
  formerCas: Map<string, Set<string>>,
  plan: Plan,
): void {
  const before = tables.hosts.get(host)
  const after = deriveHost(host, state, settings)
  if (after.config) tables.hosts.set(host, after.config)
  else if (before) tables.hosts.delete(host)
  if (after.rejections.length > 0) tables.rejections.set(host, after.rejections)
  else if (tables.rejections.has(host)) tables.rejections.delete(host)

  // A new host (every host of a full build) has no entries to replace: no empty lists made for it.
  const oldEntries = before && hostMapEntries(before)
  const newEntries = hostMapEntries(after.config)
  // Each map's lines and each backend's use are read apart: what they miss is named together (a host of a hundred paths read its backends' uses one round each).
  const missed = new MissedNodes()
  for (const map of HOST_MAPS) missed.attempt(() => replaceEntries(files, map, oldEntries?.[map] ?? NO_ENTRIES, newEntries[map] ?? NO_ENTRIES, plan))

  // The uses that come first, then those that go, as the routes' order has them (a backend's first use touches it).
  const { added, released } = changedUses(before?.routes ?? [], after.config?.routes ?? [])
  for (const [name, { ref, upstream }] of added) missed.attempt(() => backends.add(name, ref, upstream))
  for (const name of released.keys()) missed.attempt(() => backends.release(name))
  missed.check()

  const oldSecret = before?.tlsSecret
  const newSecret = after.config?.tlsSecret
  if (oldSecret !== newSecret) {
    if (oldSecret) tables.bySecret.delete(oldSecret, host)
    if (newSecret) tables.bySecret.add(newSecret, host)
  }
  if (oldSecret) touchedSecrets.add(oldSecret)
  // The CA its clients were asked of: that line of the certificate may be gone (reconcileCertificate).
  const oldCa = before?.clientCert?.ca
  if (oldSecret && oldCa) formerCas.set(oldSecret, (formerCas.get(oldSecret) ?? new Set()).add(oldCa))
  if (newSecret) touchedSecrets.add(newSecret)
}

const NO_ENTRIES: readonly MapLine[] = []

/**
 * The backends a host starts using and those it stops using; the others are left out: only their
 * uses are read and written. A backend's use counts the hosts that route to it, not their routes
 * (BackendUse), so a path added to a backend its host uses already writes no use: a leaf of the
 * snapshot fewer a change (at 20,000 Ingresses, with the two levels above it). A host's every
 * backend added again and released again read a leaf of the uses table per backend, so a change
 * to one Ingress of a host many namespaces share read what all of them use (at 100,000 objects,
 * 47 leaves and their parents: 0.65 M of the 2.18 M characters one such Ingress's commit read,
 * more than a 64 MB heap's node cache holds, then 1.53 M). A backend's name says its Service and
 * settings (backendVariantName), so a use left as it was is the one a rewrite would set. A refused
 * or redirected route (REFUSED_BACKEND, REDIRECT_BACKEND) uses no Service's backend; a canary uses its Service's.
 */
function changedUses(before: readonly RoutedTo[], after: readonly RoutedTo[]): { added: Map<string, RouteBackend>; released: Map<string, RouteBackend> } {
  const [was, is] = [routesBackends(before), routesBackends(after)]
  for (const name of [...is.keys()]) if (was.delete(name)) is.delete(name)
  return { added: is, released: was }
}

/** A map's entries for one host replaced: the ones it no longer has removed, the changed ones set, each in the plan as a runtime map edit. */
function replaceEntries(files: FileSet, path: string, before: readonly MapLine[], after: readonly MapLine[], plan: Plan): void {
  if (before.length > 0) {
    const kept = new Set(after.map((entry) => entry.key))
    for (const entry of before) if (!kept.has(entry.key) && files.setEntry(path, entry.key, undefined)) plan.maps.push({ map: path, key: entry.key })
  }
  for (const entry of after) {
    if (files.setEntry(path, entry.key, mapLineText(entry))) plan.maps.push({ map: path, key: entry.key, value: entry.value })
  }
}
