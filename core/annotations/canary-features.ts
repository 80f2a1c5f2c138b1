import type { FeatureName } from './features.ts'

/** The canary features (core/model/canary.ts reads them, render-canary.ts renders them): `canary` itself first. */
export const CANARY_FEATURES = [
  'canary',
  'canary-weight',
  'canary-weight-total',
  'canary-by-header',
  'canary-by-header-value',
  'canary-by-header-pattern',
  'canary-by-cookie',
] as const satisfies readonly FeatureName[]

/**
 * What a canary Ingress's other annotations still set, as ingress-nginx reads them: its Service's
 * balancing. Every other setting of the path is the main Ingress's (a warning says so).
 */
export const CANARY_OWN_FEATURES = ['load-balance', 'upstream-hash-by'] as const satisfies readonly FeatureName[]
