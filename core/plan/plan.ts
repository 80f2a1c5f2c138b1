import type { MapUpdate } from './map-updates.ts'

/**
 * How HAProxy takes a generation: at runtime when every change is a map entry, a server slot or
 * a certificate's content; by a reload otherwise, with the reasons.
 */
export interface Plan {
  reload: boolean
  reasons: string[]
  /** `set map` / `del map` (value undefined) on the map loaded from `map`. */
  maps: { map: string; key: string; value?: string }[]
  /**
   * Server slots: `set` moves a slot (`set server b/s addr … port …`, `state ready|maint`); `add`
   * creates one beyond the slots HAProxy loaded (`add server`, then `enable server`); `del`
   * removes one (`set server … state maint`, `shutdown sessions server`, `del server`).
   */
  servers: ServerChange[]
  /** Certificate files whose content changed in place (`set ssl cert` / `commit ssl cert`). */
  certificates: string[]
  /** Entries of ACL files (source ranges) that changed in place: `add acl` / `del acl`, adds first (acl-updates.ts); absent when none. */
  acls?: AclChange[]
}

export interface AclChange {
  acl: string
  op: 'add' | 'del'
  pattern: string
}

/**
 * The plan an agent finds by comparing the files it runs with the next generation's
 * (plan-from-files.ts): the Plan, and for each map it touches whether the map changes entry by
 * entry or is swapped whole (map-updates.ts), which the agent follows and its log line says.
 */
export interface AgentPlan extends Plan {
  mapUpdates: MapUpdate[]
}

export interface ServerChange {
  op: 'set' | 'add' | 'del'
  backend: string
  server: string
  address?: string
  state?: 'ready' | 'maint'
  /** An added slot's server options (TLS, protocol), as its backend's server lines carry them: `add server` takes no default-server. */
  options?: string
}

/** An added slot with its backend's server options, when it has any (trimmed: the options of a server line follow a space). */
export function withOptions(change: ServerChange, options: string): ServerChange {
  return options ? { ...change, options: options.trim() } : change
}

export function emptyPlan(): Plan {
  return { reload: false, reasons: [], maps: [], servers: [], certificates: [] }
}

/**
 * Each plan's reasons as a set, beside its list: a build into an empty cluster gives one reason
 * per new backend, thousands, and looking each up in the list took a tenth of that build.
 */
const reasonsGiven = new WeakMap<Plan, Set<string>>()

export function needReload(plan: Plan, reason: string): void {
  plan.reload = true
  let given = reasonsGiven.get(plan)
  if (!given) reasonsGiven.set(plan, (given = new Set(plan.reasons)))
  if (given.has(reason)) return
  given.add(reason)
  plan.reasons.push(reason)
}
