import type { FileSet } from '../generation/file-set.ts'
import { REFUSED_BACKEND, type BackendRef } from '../model/backend-ref.ts'
import type { ClusterState } from '../model/cluster-state.ts'
import { deriveBackend, type Backend } from '../model/derive-backend.ts'
import { deriveDefaultBackend } from '../model/derive-default-backend.ts'
import type { Rejection } from '../model/rejection.ts'
import { needReload, type Plan } from '../plan/plan.ts'
import { FILES } from '../render/files.ts'
import { renderBackend } from '../render/render-backends.ts'
import { defaultMap } from '../render/render-maps.ts'
import { mapTarget } from '../render/render-access.ts'
import type { SetIndex } from '../snapshot/set-index.ts'
import type { Table } from '../snapshot/table.ts'
import type { Upstream } from '../model/upstream.ts'
import { caFile, caFileOf } from '../model/backend-ca.ts'
import { CLUSTER_WIDE } from '../snapshot/tables.ts'
import { planServerChanges } from './server-changes.ts'

/**
 * A backend's entry in the uses table: the Service it routes to, with which settings, and how
 * many hosts route to it (the default backend counts as one; routes counted before layout 70).
 */
export interface BackendUse {
  ref: BackendRef
  count: number
  /** The backend settings its routes' Ingresses ask for (its name says which: backendVariantName). */
  upstream?: Upstream
}

/** The default backend's entry: its name when there is one, and what was wrong in it. */
export interface DefaultBackendEntry {
  name?: string
  /** Its Ingress's access group, when it has source ranges. */
  access?: string
  rejections: Rejection[]
}

/**
 * The backends in use, counted, and the Service → backends index: a backend whose first use
 * comes or whose last goes is `touched` (it enters or leaves the files), as is every backend of
 * a touched Service, so a change derives only those again.
 */
export class BackendUses {
  readonly touched = new Set<string>()
  /** CA files (backend-ca.ts) whose first backend came or whose last went. */
  readonly touchedCaFiles = new Set<string>()

  constructor(
    private readonly uses: Table<BackendUse>,
    private readonly byService: SetIndex,
    /** The backends that verify their servers with each CA file. */
    private readonly byCaFile: SetIndex,
  ) {}

  use(name: string): BackendUse | undefined {
    return this.uses.get(name)
  }

  add(name: string, ref: BackendRef, upstream: Upstream | undefined): void {
    const use = this.uses.get(name)
    this.uses.set(name, upstream ? { ref, count: (use?.count ?? 0) + 1, upstream } : { ref, count: (use?.count ?? 0) + 1 })
    if (use) return
    this.byService.add(`${ref.namespace}/${ref.service}`, name)
    this.touched.add(name)
    const ca = upstream?.tls?.ca
    if (ca) this.touchCaFile(caFile(ca), (path) => this.byCaFile.add(path, name))
  }

  release(name: string): void {
    const use = this.uses.get(name)!
    if (use.count > 1) return this.uses.set(name, { ...use, count: use.count - 1 })
    this.uses.delete(name)
    this.byService.delete(`${use.ref.namespace}/${use.ref.service}`, name)
    this.touched.add(name)
    const ca = use.upstream?.tls?.ca
    if (ca) this.touchCaFile(caFile(ca), (path) => this.byCaFile.delete(path, name))
  }

  private touchCaFile(path: string, change: (path: string) => void): void {
    change(path)
    this.touchedCaFiles.add(path)
  }

  /** A Secret changed: the CA files made from it are written again (a scan of the few CA files in use). */
  touchSecret(secret: string): void {
    const prefix = caFile({ secret, key: '' }).slice(0, -'.pem'.length)
    for (const path of this.byCaFile.keys()) if (path.startsWith(prefix)) this.touchedCaFiles.add(path)
  }

  /** A backend that verifies with a CA file, if one still does. */
  caFileUser(path: string): BackendUse | undefined {
    const [name] = this.byCaFile.members(path)
    return name === undefined ? undefined : this.uses.get(name)
  }

  /**
   * Counts every backend's users again, from each user's backends (a host's, the default
   * backend's): a snapshot before layout 70 counted routes. A stored use no user names keeps its
   * count, as the write before left it.
   */
  recount(users: Iterable<Iterable<string>>): void {
    const counts = new Map<string, number>()
    for (const names of users) for (const name of names) counts.set(name, (counts.get(name) ?? 0) + 1)
    for (const [name, use] of [...this.uses.entries()]) {
      const count = counts.get(name)
      if (count !== undefined && count !== use.count) this.uses.set(name, { ...use, count })
    }
  }

  /** A Service (or its EndpointSlices) changed: every backend routing to it is derived again. */
  touchService(service: string): void {
    for (const name of this.byService.members(service)) this.touched.add(name)
  }

  /** The Services some backend routes to. */
  services(): string[] {
    return this.byService.keys()
  }
}

/** The default backend derived again: its use counted, its entry and the default map set. */
export function reconcileDefaultBackend(state: ClusterState, entry: Table<DefaultBackendEntry>, uses: BackendUses, files: FileSet, plan: Plan): void {
  const { backend, name, access, upstream, rejections } = deriveDefaultBackend(state)
  const before = entry.get(CLUSTER_WIDE)
  if (backend && name) uses.add(name, backend, upstream)
  // A refused catch-all used no Service's backend.
  if (before?.name && before.name !== REFUSED_BACKEND) uses.release(before.name)
  entry.set(CLUSTER_WIDE, name ? { name, ...(access ? { access } : {}), rejections } : { rejections })
  if (files.setText(FILES.defaultMap, defaultMap(name, access))) {
    plan.maps.push(name ? { map: FILES.defaultMap, key: 'default', value: mapTarget(name, access) } : { map: FILES.defaultMap, key: 'default' })
  }
}

/** A touched backend derived again and set in the backends file, or dropped when nothing uses it; the plan says how HAProxy takes it. */
export function reconcileBackend(name: string, state: ClusterState, backends: Table<Backend>, uses: BackendUses, files: FileSet, plan: Plan): void {
  const before = backends.get(name)
  const use = uses.use(name)
  if (!use) {
    // An unused backend leaves the files; the running one is unreachable until the next reload drops it.
    if (before) backends.delete(name)
    files.setEntry(FILES.backends, name, undefined)
    return
  }
  const after = deriveBackend(use.ref, state, use.upstream)
  backends.set(name, after)
  if (!files.setEntry(FILES.backends, name, renderBackend(after))) return
  if (!before) needReload(plan, `backend ${name} is new`)
  else if (JSON.stringify(before.snippet) !== JSON.stringify(after.snippet)) needReload(plan, `backend ${name}'s configuration snippet changed`)
  else planServerChanges(before, after, plan)
}

/**
 * A CA file written while a backend verifies with it, removed when none does. HAProxy 2.6 reads CA
 * files when it loads its configuration, so a changed bundle reloads, saying which.
 */
export function reconcileCaFile(path: string, state: ClusterState, uses: BackendUses, files: FileSet, plan: Plan): void {
  const file = caFileOf(uses.caFileUser(path)?.upstream, state)
  const existed = files.text(path) !== undefined
  if (files.setText(path, file?.pem) && file && existed) needReload(plan, `the CA bundle ${path} changed (HAProxy reads CA files at a reload)`)
}
