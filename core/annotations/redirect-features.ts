import type { FeatureName } from './features.ts'

/** The redirects and HSTS, rendered by core/render/render-redirects.ts (ssl-redirect, older, is named on its own). */
export const REDIRECT_FEATURES: readonly FeatureName[] = [
  'force-ssl-redirect',
  'ssl-redirect-code',
  'hsts',
  'hsts-max-age',
  'hsts-include-subdomains',
  'hsts-preload',
  'permanent-redirect',
  'permanent-redirect-code',
  'temporal-redirect',
  'temporal-redirect-code',
  'app-root',
  'from-to-www-redirect',
]
