import type { FeatureName } from './features.ts'

/** The rate and connection limit features, rendered together (route-limits.ts, render-limits.ts). */
export const LIMIT_FEATURES: readonly FeatureName[] = [
  'limit-rps',
  'limit-rpm',
  'limit-connections',
  'limit-burst-multiplier',
  'limit-allowlist',
  'limit-status-code',
  'rate-limit-requests',
  'rate-limit-period',
  'rate-limit-size',
]
