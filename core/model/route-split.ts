import { backendVariantName, UNRESOLVED_BACKEND, type BackendRef } from './backend-ref.ts'
import type { BackendFeatures } from './gateway-backend-filters.ts'
import type { Upstream } from './upstream.ts'

/** One Service of a split path and its weight (above 0); its features, when its backendRef's filters give it its own (gateway-backend-filters.ts), else the route's. */
export interface SplitBackend extends BackendFeatures {
  backend: BackendRef
  backendName: string
  /** How it is spoken to, when not HTTP/1.1 in clear (a GRPCRoute's): its backend is the Service's for that (backendVariantName). */
  upstream?: Upstream
  weight: number
}

/**
 * A path an HTTPRoute rule splits between several weighted Services (`backendRefs` weights): each
 * request goes to one, drawn in proportion to the weights (render-split.ts).
 */
export interface RouteSplit {
  backends: SplitBackend[]
}

/** The frontend rule every HTTPRoute that splits a path stores, among the canaries' (canary.ts keeps the frontend's rules). */
export const SPLIT_RULE = 'split'

/** The most Services a rule names (the Gateway API's `backendRefs` limit): the frontend has a rule per place. */
export const MOST_SPLIT_BACKENDS = 16

/**
 * A rule's weighted Services as a split, when they are two or more HAProxy backends; one is no split.
 * Those that do not resolve share UNRESOLVED_BACKEND, which answers 500: a rule naming one beside a
 * Service that does splits, so a weight's change stays a map edit. `upstream`: how the Services are
 * spoken to (a GRPCRoute's), each going to its Service's backend for that.
 */
export function routeSplit(
  backends: readonly ({ ref: BackendRef; weight: number; unresolved?: true } & BackendFeatures)[],
  upstream?: Upstream,
): RouteSplit | undefined {
  const split = backends.map(({ ref, weight, unresolved, ...features }) =>
    unresolved
      ? { backend: ref, backendName: UNRESOLVED_BACKEND, weight }
      : { backend: ref, backendName: backendVariantName(ref, upstream), ...(upstream ? { upstream } : {}), weight, ...features },
  )
  return new Set(split.map((one) => one.backendName)).size > 1 ? { backends: split } : undefined
}
