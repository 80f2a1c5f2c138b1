import type { HeaderPattern } from '../annotations/canary-values.ts'
import type { Ingress } from '../kube/ingress.ts'
import { objectRef, type KubeObject, type ObjectRef } from '../kube/objects.ts'
import { accessGroupName } from './access-group.ts'
import type { ClusterState, InvalidObject } from './cluster-state.ts'
import { ingressAnnotations } from './ingress-annotations.ts'
import { ingressRefusal } from './ingress-refusal.ts'
import { perObject } from './per-object.ts'
import { type GatewayRoute, routeVerdict } from './gateway-verdict.ts'
import { routeSplit, SPLIT_RULE } from './route-split.ts'
import { conditionRules } from './gateway-conditions.ts'
import { servicesFirstRules } from './grpc-services-first.ts'

/**
 * A canary Ingress (ingress-nginx's `canary: "true"`): its paths are not served on their own, they
 * take some of the requests of the path another Ingress serves (canary-route.ts). Which ones, in
 * ingress-nginx's order: the header, then the cookie, then the weight.
 */
export interface CanaryRule {
  /** Of `total` requests, how many go to the canary (a draw per request). */
  weight: number
  total: number
  /** The request header (lowercase) that decides first: "always" or "never", or `headerValues`. */
  header?: string
  /** The header's values that send a request to the canary (canary-by-header-value, or the pattern's alternatives when it anchors both ends); others fall through. */
  headerValues?: string[]
  /** A pattern's alternatives found anywhere in the header's value, or at its start or end only (`^…`, `…$`), as NGINX searches it. */
  headerPattern?: HeaderPattern
  /** The cookie that decides next: "always" or "never"; other values fall through. */
  cookie?: string
}

export const DEFAULT_CANARY_TOTAL = 100

/** An Ingress's canary rule, when it is a canary (memoised: objects are immutable). */
export const canaryOf = perObject((ingress: Ingress): CanaryRule | undefined => {
  const features = ingressAnnotations(ingress).rendered
  if (features.canary !== true) return undefined
  const rule: CanaryRule = { weight: features['canary-weight'] ?? 0, total: features['canary-weight-total'] ?? DEFAULT_CANARY_TOTAL }
  const header = features['canary-by-header']
  // A pattern hapedge refused (a regular expression it does not write) leaves the header deciding nothing, rather than "always"/"never" the pattern replaced.
  const refusedPattern =
    features['canary-by-header-value'] === undefined &&
    features['canary-by-header-pattern'] === undefined &&
    Object.keys(ingress.metadata.annotations ?? {}).some((key) => key.endsWith('/canary-by-header-pattern'))
  if (header !== undefined && !refusedPattern) {
    rule.header = header
    const pattern = features['canary-by-header-pattern']
    const values = features['canary-by-header-value'] ?? (pattern?.start && pattern.end ? pattern.values : undefined)
    if (values) rule.headerValues = values
    else if (pattern) rule.headerPattern = pattern
  }
  if (features['canary-by-cookie'] !== undefined) rule.cookie = features['canary-by-cookie']
  return rule
})

/** The rule every served canary Ingress puts in the frontend, and one per header and cookie it reads: HAProxy names them in its rules. */
export const CANARY_RULE = 'canary'
export const headerRule = (name: string) => `header|${name}`
export const cookieRule = (name: string) => `cookie|${name}`

/**
 * A served canary Ingress's frontend rules under its key (`namespace_name`, as its access group's):
 * the frontend's canary rules are the union of these. A refused Ingress is no canary (canary-route.ts).
 */
export function canaryRulesOfObject(object: KubeObject | InvalidObject, state: ClusterState): [string, string[]] | undefined {
  if ('issues' in object) return undefined
  if (object.kind === 'HTTPRoute' || object.kind === 'GRPCRoute') {
    const rules = gatewayRouteRules(object, state)
    return rules.length > 0 ? [frontendRulesKey(objectRef(object)), rules] : undefined
  }
  if (object.kind !== 'Ingress') return undefined
  const ingress = object
  const rule = canaryOf(ingress)
  if (!rule || !state.serves(ingress) || ingressRefusal(ingress, state) !== undefined) return undefined
  const rules = [CANARY_RULE]
  if (rule.header) rules.push(headerRule(rule.header))
  if (rule.cookie) rules.push(cookieRule(rule.cookie))
  return [accessGroupName(ingress.metadata.namespace, ingress.metadata.name), rules]
}

/** Every rule of the given Ingresses' canary rules, once, sorted. */
export function unionOfCanaryRules(rulesOfIngresses: Iterable<readonly string[]>): string[] {
  const all = new Set<string>()
  for (const rules of rulesOfIngresses) for (const rule of rules) all.add(rule)
  return [...all].sort()
}

/** The key an object's frontend rules are stored under: an Ingress's `namespace_name` (its access group's), another kind's prefixed with it. */
export function frontendRulesKey(ref: ObjectRef): string {
  const key = accessGroupName(ref.namespace ?? '', ref.name)
  return ref.kind === 'Ingress' ? key : `${ref.kind}:${key}`
}

/** A served HTTPRoute's or GRPCRoute's frontend rules: the split's when a path splits between several Services (gateway-host.ts), and its conditions' (render-conditions.ts). */
function gatewayRouteRules(route: GatewayRoute, state: ClusterState): string[] {
  const verdict = routeVerdict(route, state)
  if (!verdict.served) return []
  const { paths } = verdict.rules
  const split = paths.some(({ backends }) => routeSplit(backends) !== undefined) ? [SPLIT_RULE] : []
  return [...split, ...conditionRules(paths.map((path) => path.conditions)), ...servicesFirstRules(route.kind, paths)].sort()
}
