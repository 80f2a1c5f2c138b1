import type { FeatureName } from './features.ts'

/**
 * The request and response header features (core/model/header-rules.ts reads them, render-headers.ts renders them);
 * custom-headers' ConfigMap is read by core/model/custom-headers.ts.
 */
export const HEADER_FEATURES = [
  'request-del-header',
  'request-set-header',
  'request-add-header',
  'response-del-header',
  'response-set-header',
  'response-add-header',
  'custom-headers',
] as const satisfies readonly FeatureName[]
