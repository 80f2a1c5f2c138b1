import type { GatewayApiStatus, GatewayCondition, GatewayObjectStatus } from '../kube/gateway-status.ts'
import type { ClusterState } from '../model/cluster-state.ts'
import { gatewayController } from '../model/gateway-controller.ts'
import { SEPARATOR } from '../snapshot/separator.ts'
import { TABLE, treeKey } from '../snapshot/tables.ts'
import type { Tree } from '../tree/tree.ts'

/**
 * The transition time a stored status carries: none. A condition's time is the commit's that
 * serves it, put in when it is read, so a status no change touched is not written again.
 */
export const UNSTAMPED = ''

/** The kinds in the order gatewayApiStatus lists them (each kind's objects in key order, as the snapshot holds them). */
const KIND_ORDER = ['GatewayClass', 'HTTPRoute', 'GRPCRoute', 'Gateway'] as const

/**
 * The whole Gateway API status a snapshot holds (reconcile-gateway-status.ts kept it), with
 * `at` as every condition's transition time: equal to gatewayApiStatus over its objects, read
 * without deriving anything (a range of the snapshot per kind).
 */
export function storedGatewayStatus(snapshot: Tree, state: ClusterState, at: string): GatewayApiStatus {
  const objects: GatewayObjectStatus[] = []
  for (const kind of KIND_ORDER)
    for (const entry of snapshot.prefix(treeKey(TABLE.gatewayStatus, `${kind}/`))) objects.push(stamped(JSON.parse(entry.value) as GatewayObjectStatus, at))
  return { controllerName: gatewayController(state.configMap()), objects }
}

/** The key range of the stored statuses, for a diff of two snapshots (`from <= key < to`). */
export const STORED_STATUS_RANGE = [treeKey(TABLE.gatewayStatus, ''), `${TABLE.gatewayStatus}${String.fromCharCode(SEPARATOR.charCodeAt(0) + 1)}`] as const

/** The object key (`Kind/ns/name`) of a stored status's snapshot key. */
export const statusObjectKey = (key: string) => key.slice(STORED_STATUS_RANGE[0].length)

/** A stored status with `at` as its conditions' transition time. */
export function stamped(object: GatewayObjectStatus, at: string): GatewayObjectStatus {
  const stamp = (conditions: GatewayCondition[]) => conditions.map((condition) => ({ ...condition, lastTransitionTime: at }))
  if (object.kind === 'GatewayClass') return { ...object, status: { conditions: stamp(object.status.conditions) } }
  if (object.kind === 'Gateway')
    return {
      ...object,
      status: {
        conditions: stamp(object.status.conditions),
        listeners: object.status.listeners.map((listener) => ({ ...listener, conditions: stamp(listener.conditions) })),
      },
    }
  return { ...object, parents: object.parents.map((parent) => ({ ...parent, conditions: stamp(parent.conditions) })) }
}
