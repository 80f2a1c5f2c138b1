import type { KubeObject } from '../kube/objects.ts'
import { accessGroupName } from './access-group.ts'
import type { ClusterState, InvalidObject } from './cluster-state.ts'
import { headerRulesOf } from './route-headers.ts'

/**
 * An Ingress's header rules under its key (`namespace_name`, as its access group's), when it is an
 * Ingress this cluster serves that has any: the frontend's header rules are the union of these.
 */
export function headerRulesOfObject(object: KubeObject | InvalidObject, state: ClusterState): [string, string[]] | undefined {
  if ('issues' in object || object.kind !== 'Ingress') return undefined
  const rules = headerRulesOf(object, state)
  return rules && [accessGroupName(object.metadata.namespace, object.metadata.name), rules]
}
