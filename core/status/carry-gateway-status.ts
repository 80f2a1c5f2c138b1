import type { GatewayObjectStatus, ListenerStatus, RouteParentStatus } from '../kube/gateway-status.ts'
import { canonicalJson } from './canonical-json.ts'
import { carryConditionList } from './status-conditions.ts'

/** What the writer read of an object: its generation and its status, of any shape (another controller may have written it). */
export interface ReadObject {
  metadata?: { generation?: number }
  status?: unknown
}

/**
 * The `.status` to write for one object, or undefined when the object already shows it. A
 * condition whose status did not change keeps its `lastTransitionTime`; every condition names
 * the object's `metadata.generation`. A route keeps the `parents` entries of other controllers
 * and gets this controller's entries in place of those it had.
 */
export function nextGatewayObjectStatus(computed: GatewayObjectStatus, read: ReadObject, controllerName: string): Record<string, unknown> | undefined {
  const generation = read.metadata?.generation ?? 0
  const current = (typeof read.status === 'object' && read.status !== null ? read.status : {}) as Record<string, unknown>
  let next: Record<string, unknown>
  if (computed.kind === 'GatewayClass') next = { ...current, conditions: carryConditionList(computed.status.conditions, current.conditions, generation) }
  else if (computed.kind === 'Gateway')
    next = {
      ...current,
      conditions: carryConditionList(computed.status.conditions, current.conditions, generation),
      listeners: carryListeners(computed.status.listeners, current.listeners, generation),
    }
  else next = { ...current, parents: carryParents(computed.parents, current.parents, controllerName, generation) }
  return canonicalJson(next) === canonicalJson(current) ? undefined : next
}

function carryListeners(next: ListenerStatus[], previous: unknown, generation: number): ListenerStatus[] {
  const before = new Map(entries(previous).map((listener) => [listener.name, listener]))
  return next.map((listener) => ({ ...listener, conditions: carryConditionList(listener.conditions, before.get(listener.name)?.conditions, generation) }))
}

function carryParents(next: RouteParentStatus[], previous: unknown, controllerName: string, generation: number): unknown[] {
  const read = entries(previous)
  const ours = new Map(read.filter((parent) => parent.controllerName === controllerName).map((parent) => [canonicalJson(parent.parentRef), parent]))
  const others = read.filter((parent) => parent.controllerName !== controllerName)
  return [
    ...others,
    ...next.map((parent) => ({
      ...parent,
      conditions: carryConditionList(parent.conditions, ours.get(canonicalJson(parent.parentRef))?.conditions, generation),
    })),
  ]
}

/** The objects of a list as read (anything else: none). */
function entries(list: unknown): Record<string, unknown>[] {
  return Array.isArray(list) ? list.filter((entry): entry is Record<string, unknown> => typeof entry === 'object' && entry !== null) : []
}
