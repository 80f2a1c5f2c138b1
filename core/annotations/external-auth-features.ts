import type { FeatureName } from './features.ts'

/** The external authentication features (core/model/external-auth.ts reads them, render-external-auth.ts renders them): auth-url first. */
export const EXTERNAL_AUTH_FEATURES = [
  'auth-url',
  'auth-method',
  'auth-signin',
  'auth-signin-redirect-param',
  'auth-response-headers',
  'auth-request-redirect',
  'auth-request-headers',
] as const satisfies readonly FeatureName[]
