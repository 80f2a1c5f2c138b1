import type { Ingress } from '../kube/ingress.ts'
import type { ClusterState } from './cluster-state.ts'
import { ingressHeaders } from './custom-headers.ts'
import { compareRules, type HeaderValue } from './header-rules.ts'
import { ingressRefusal } from './ingress-refusal.ts'
import { type OwnedRoute, reachesService, withOwnerValues } from './owner-values.ts'
import { asksNothing } from '../annotations/features.ts'
import { ingressAnnotations } from './ingress-annotations.ts'

/** An Ingress's header values: its rendered features' and its custom-headers ConfigMap's (so never a refused name). */
export function headersOf(ingress: Ingress, state: ClusterState): HeaderValue[] | undefined {
  // Asked of each Ingress on each of its hosts: one that asks for no feature sets no header.
  if (asksNothing(ingressAnnotations(ingress).rendered)) return undefined
  const { headers } = ingressHeaders(ingress, state)
  return headers.length > 0 ? headers : undefined
}

/**
 * The header rules an Ingress served by this cluster puts in the frontend (sorted), if any: a
 * refused Ingress's routes answer 503 and reach no Service, so it has none.
 */
export function headerRulesOf(ingress: Ingress, state: ClusterState): string[] | undefined {
  if (!state.serves(ingress) || ingressRefusal(ingress, state) !== undefined) return undefined
  return headersOf(ingress, state)?.map((header) => header.rule)
}

/** Every rule of the given Ingresses' rules, once, in the frontend's order. */
export function unionOfRules(rulesOfIngresses: Iterable<readonly string[]>): string[] {
  const all = new Set<string>()
  for (const rules of rulesOfIngresses) for (const rule of rules) all.add(rule)
  return [...all].sort(compareRules)
}

interface HeadedRoute extends OwnedRoute {
  headers?: HeaderValue[]
}

/** The routes of Ingresses with header rules, with them (a refused or redirected route reaches no Service, so it has none). */
export function withHeaders<R extends HeadedRoute>(routes: R[], ingresses: readonly Ingress[], state: ClusterState): R[] {
  return withOwnerValues(
    routes,
    ingresses,
    (ingress) => headersOf(ingress, state),
    (route, headers) => (reachesService(route) ? { ...route, headers } : route),
  )
}
