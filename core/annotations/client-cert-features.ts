import type { FeatureName } from './features.ts'
import { oneOf, wholeNumber } from './values.ts'

/** The client-certificate (mTLS) features, per host through SNI (core/model/client-cert.ts reads them, render-client-cert.ts renders them). */
export const CLIENT_CERT_FEATURES = [
  'auth-tls-secret',
  'auth-tls-verify-client',
  'auth-tls-error-page',
  'auth-tls-pass-certificate-to-upstream',
  'auth-tls-verify-depth',
  'auth-tls-match-cn',
] as const satisfies readonly FeatureName[]

/** ingress-nginx's `auth-tls-verify-client`: required, checked when sent, requested and passed unverified, or off. */
export type VerifyClient = 'on' | 'optional' | 'optional_no_ca' | 'off'

/** ingress-nginx's `auth-tls-verify-depth`: how many intermediate certificates may stand between a client's and a CA (0 reads as unset, as ingress-nginx reads it). */
export const verifyDepth = wholeNumber(0, 2_147_483_647)

export const verifyClient = oneOf<VerifyClient>(
  { on: 'on', optional: 'optional', optional_no_ca: 'optional_no_ca', off: 'off' },
  '"on", "optional", "optional_no_ca" or "off"',
)
