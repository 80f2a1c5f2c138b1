import { objectRef, type KubeObject } from '../kube/objects.ts'
import { accessGroupName } from './access-group.ts'
import { frontendRulesKey } from './canary.ts'
import type { ClusterState, InvalidObject } from './cluster-state.ts'
import { headerRulesOfRules } from './gateway-filters.ts'
import { routeVerdict } from './gateway-verdict.ts'
import { headerRulesOf } from './route-headers.ts'

/**
 * An Ingress's header rules under its key (`namespace_name`, as its access group's), when it is an
 * Ingress this cluster serves that has any, and a served HTTPRoute's or GRPCRoute's (its rules' and backendRefs' header filters) under
 * its own (frontendRulesKey): the frontend's header rules are the union of these.
 */
export function headerRulesOfObject(object: KubeObject | InvalidObject, state: ClusterState): [string, string[]] | undefined {
  if ('issues' in object) return undefined
  if (object.kind === 'HTTPRoute' || object.kind === 'GRPCRoute') {
    const verdict = routeVerdict(object, state)
    const rules = verdict.served
      ? headerRulesOfRules(verdict.rules.paths.flatMap((path) => [path.features.headers, ...path.backends.map((backend) => backend.headers)]))
      : []
    return rules.length > 0 ? [frontendRulesKey(objectRef(object)), rules] : undefined
  }
  if (object.kind !== 'Ingress') return undefined
  const rules = headerRulesOf(object, state)
  return rules && [accessGroupName(object.metadata.namespace, object.metadata.name), rules]
}
