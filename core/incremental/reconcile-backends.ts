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
import { CLUSTER_WIDE } from '../snapshot/tables.ts'
import { planServerChanges } from './server-changes.ts'

/** A backend's entry in the uses table: the Service it routes to and how many routes (the default backend counts as one) use it. */
export interface BackendUse {
  ref: BackendRef
  count: number
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

  constructor(
    private readonly uses: Table<BackendUse>,
    private readonly byService: SetIndex,
  ) {}

  ref(name: string): BackendRef | undefined {
    return this.uses.get(name)?.ref
  }

  use(name: string, ref: BackendRef): void {
    const use = this.uses.get(name)
    this.uses.set(name, { ref, count: (use?.count ?? 0) + 1 })
    if (use) return
    this.byService.add(`${ref.namespace}/${ref.service}`, name)
    this.touched.add(name)
  }

  release(name: string): void {
    const use = this.uses.get(name)!
    if (use.count > 1) return this.uses.set(name, { ...use, count: use.count - 1 })
    this.uses.delete(name)
    this.byService.delete(`${use.ref.namespace}/${use.ref.service}`, name)
    this.touched.add(name)
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
  const { backend, name, access, rejections } = deriveDefaultBackend(state)
  const before = entry.get(CLUSTER_WIDE)
  if (backend && name) uses.use(name, backend)
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
  const ref = uses.ref(name)
  if (!ref) {
    // An unused backend leaves the files; the running one is unreachable until the next reload drops it.
    if (before) backends.delete(name)
    files.setEntry(FILES.backends, name, undefined)
    return
  }
  const after = deriveBackend(ref, state)
  backends.set(name, after)
  if (!files.setEntry(FILES.backends, name, renderBackend(after))) return
  if (!before) needReload(plan, `backend ${name} is new`)
  else if (JSON.stringify(before.snippet) !== JSON.stringify(after.snippet)) needReload(plan, `backend ${name}'s configuration snippet changed`)
  else planServerChanges(before, after, plan)
}
