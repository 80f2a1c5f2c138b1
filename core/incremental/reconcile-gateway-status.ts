import type { Gateway } from '../kube/gateway.ts'
import type { GrpcRoute } from '../kube/gateway-grpc-route.ts'
import type { HttpRoute } from '../kube/gateway-http-route.ts'
import type { GatewayObjectStatus } from '../kube/gateway-status.ts'
import { objectKey, type ObjectRef, refOfKey } from '../kube/objects.ts'
import type { ClusterState } from '../model/cluster-state.ts'
import { gatewayController } from '../model/gateway-controller.ts'
import type { SetIndex } from '../snapshot/set-index.ts'
import type { Table } from '../snapshot/table.ts'
import { routeStatus } from '../gateway-status/gateway-api-status.ts'
import { gatewayClassStatus, gatewayStatus, listenerKey } from '../gateway-status/gateway-object-status.ts'
import { UNSTAMPED } from '../gateway-status/stored-gateway-status.ts'
import type { DirtySet } from './dirty-set.ts'

/** What a route's stored status counts for: the listeners (`listenerKey`) it is attached to, in their Gateways' attachedRoutes. */
export interface RouteStatusReads {
  listeners: string[]
}

export interface GatewayStatusTables {
  /** Each object's status (`Kind/ns/name`), its transition times UNSTAMPED: the commit's time is put in when it is read. */
  statuses: Table<GatewayObjectStatus>
  reads: Table<RouteStatusReads>
  /** The routes attached to each listener: a Gateway's `attachedRoutes` are this index's counts, never a recount of its routes. */
  listenerRoutes: SetIndex
}

const ROUTE_KINDS: ReadonlySet<string> = new Set(['HTTPRoute', 'GRPCRoute'])

/**
 * The Gateway API status of what a commit touched, kept in the snapshot so that a change costs
 * what it changes: the routes and Gateways among its objects (which the engine has already
 * widened to a Gateway's routes, a GatewayClass's Gateways, a ReferenceGrant's namespaces and Gateways, a
 * Secret's Gateways, a Service's routes when it came or went, the controller setting's
 * everything; GRPCRoutes as HTTPRoutes), the Gateways
 * whose listeners gained or lost a route, and the GatewayClasses when one of them or the
 * settings changed. Equal to gatewayApiStatus over the same objects (the
 * property test holds them together).
 */
export function reconcileGatewayStatus(state: ClusterState, dirty: DirtySet, tables: GatewayStatusTables): void {
  const controllerName = gatewayController(state.configMap())
  const touched = new Map<string, ObjectRef>()
  for (const ref of dirty.objects) touched.set(objectKey(ref), ref)
  const routes = new Set<string>()
  const gateways = new Set<string>()
  let classes = dirty.settings
  for (const [key, ref] of touched) {
    if (ROUTE_KINDS.has(ref.kind)) routes.add(key)
    else if (ref.kind === 'Gateway') gateways.add(key)
    else if (ref.kind === 'GatewayClass') classes = true
  }

  for (const key of routes) {
    const before = tables.reads.get(key)
    const route = state.get(refOfKey(key))
    const computed = route && !('issues' in route) ? routeStatus(route as HttpRoute | GrpcRoute, state, controllerName, UNSTAMPED) : undefined
    setStatus(tables.statuses, key, computed?.object)
    const after = computed && { listeners: computed.listeners }
    if (after && JSON.stringify(after) !== JSON.stringify(before)) tables.reads.set(key, after)
    else if (!after && before) tables.reads.delete(key)
    for (const listener of changedMembers(tables.listenerRoutes, key, before?.listeners, after?.listeners)) gateways.add(gatewayOfListener(listener))
  }

  for (const key of gateways) {
    const gateway = state.get(refOfKey(key))
    const served = gateway && !('issues' in gateway) && state.servesGatewayClass((gateway as Gateway).spec.gatewayClassName)
    setStatus(
      tables.statuses,
      key,
      served ? gatewayStatus(gateway as Gateway, state, attachedCounts(gateway as Gateway, tables.listenerRoutes), UNSTAMPED) : undefined,
    )
  }

  if (!classes) return
  const classKeys = new Set([...tables.statuses.entries('GatewayClass/')].map(([key]) => key))
  for (const gatewayClass of state.gatewayClasses()) classKeys.add(`GatewayClass/${gatewayClass.metadata.name}`)
  for (const key of classKeys) {
    const gatewayClass = state.get(refOfKey(key))
    const ours = gatewayClass && !('issues' in gatewayClass) && gatewayClass.kind === 'GatewayClass' && gatewayClass.spec.controllerName === controllerName
    setStatus(tables.statuses, key, ours ? gatewayClassStatus(gatewayClass.metadata.name, controllerName, UNSTAMPED) : undefined)
  }
}

/** Sets a status, or takes it out; a value equal to the stored one is left alone (no write). */
function setStatus(statuses: Table<GatewayObjectStatus>, key: string, status: GatewayObjectStatus | undefined): void {
  const stored = statuses.get(key)
  if (status === undefined) {
    if (stored) statuses.delete(key)
  } else if (!stored || JSON.stringify(stored) !== JSON.stringify(status)) statuses.set(key, status)
}

/** Moves `member` in `index` from the keys `before` to those `after`; returns the keys it left or joined. */
function changedMembers(index: SetIndex, member: string, before: readonly string[] = [], after: readonly string[] = []): string[] {
  const left = before.filter((key) => !after.includes(key))
  const joined = after.filter((key) => !before.includes(key))
  for (const key of left) index.delete(key, member)
  for (const key of joined) index.add(key, member)
  return [...left, ...joined]
}

/** The number of routes attached to each of a Gateway's listeners, counted from the index's rows. */
function attachedCounts(gateway: Gateway, listenerRoutes: SetIndex): Map<string, number> {
  return new Map(gateway.spec.listeners.map((listener) => [listenerKey(gateway, listener), listenerRoutes.count(listenerKey(gateway, listener))]))
}

/** `Gateway/ns/name` of a `listenerKey` (`ns/name/listener`: none of the three holds a slash). */
const gatewayOfListener = (listener: string) => `Gateway/${listener.slice(0, listener.lastIndexOf('/'))}`
