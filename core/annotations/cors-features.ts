import type { FeatureName } from './features.ts'

/** CORS's settings, which mean something only with enable-cors (core/model/route-cors.ts). */
export const CORS_SETTINGS = [
  'cors-allow-origin',
  'cors-allow-methods',
  'cors-allow-headers',
  'cors-expose-headers',
  'cors-allow-credentials',
  'cors-max-age',
] as const satisfies readonly FeatureName[]

/** The CORS features hapedge renders: enable-cors and its settings. */
export const CORS_FEATURES: readonly FeatureName[] = ['enable-cors', ...CORS_SETTINGS]
