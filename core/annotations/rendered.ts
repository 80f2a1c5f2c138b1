import { CORS_FEATURES } from './cors-features.ts'
import type { FeatureName } from './features.ts'
import { REDIRECT_FEATURES } from './redirect-features.ts'
import { UPSTREAM_FEATURES } from './upstream-features.ts'
import { HEADER_FEATURES } from './header-features.ts'
import { CANARY_FEATURES } from './canary-features.ts'
import { CLIENT_CERT_FEATURES } from './client-cert-features.ts'
import { LIMIT_FEATURES } from './limit-features.ts'
import { EXTERNAL_AUTH_FEATURES } from './external-auth-features.ts'
import { MIRROR_FEATURES } from './mirror-features.ts'

/**
 * The features hapedge renders today. A feature the annotations ask for that is not here is
 * reported ("not yet honoured"), and one that restricts access refuses the Ingress (fail closed):
 * a later change adds a feature by rendering it and naming it here.
 */
export const RENDERED_FEATURES: ReadonlySet<FeatureName> = new Set<FeatureName>([
  'allowlist-source-range',
  'auth-realm',
  'auth-secret',
  'auth-secret-type',
  'auth-type',
  ...EXTERNAL_AUTH_FEATURES,
  'denylist-source-range',
  'ssl-redirect',
  ...REDIRECT_FEATURES,
  'timeout-server',
  'timeout-tunnel',
  ...UPSTREAM_FEATURES,
  'proxy-body-size',
  ...CORS_FEATURES,
  ...HEADER_FEATURES,
  'server-alias',
  'mergeable-ingress-type',
  'upstream-vhost',
  'rewrite-target',
  'use-regex',
  'x-forwarded-prefix',
  ...CANARY_FEATURES,
  ...CLIENT_CERT_FEATURES,
  ...LIMIT_FEATURES,
  ...MIRROR_FEATURES,
])

export const NOT_YET_HONOURED = 'not yet honoured by hapedge'
