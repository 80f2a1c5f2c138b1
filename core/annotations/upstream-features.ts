import type { FeatureName } from './features.ts'

/** Cookie affinity's settings, which mean something only with `affinity: cookie`. */
export const AFFINITY_SETTINGS = [
  'affinity-mode',
  'session-cookie-name',
  'session-cookie-path',
  'session-cookie-domain',
  'session-cookie-expires',
  'session-cookie-max-age',
  'session-cookie-secure',
  'session-cookie-samesite',
  'session-cookie-partitioned',
  'session-cookie-conditional-samesite-none',
] as const satisfies readonly FeatureName[]

/** The backend settings hapedge renders (core/model/upstream.ts): each Ingress that sets any gets backends of its own for them. */
export const UPSTREAM_FEATURES: readonly FeatureName[] = [
  'backend-protocol',
  'proxy-ssl-secret',
  'proxy-ssl-verify',
  'proxy-ssl-name',
  'proxy-ssl-server-name',
  'load-balance',
  'upstream-hash-by',
  'affinity',
  ...AFFINITY_SETTINGS,
  'service-upstream',
  'timeout-connect',
  'proxy-next-upstream',
  'proxy-next-upstream-tries',
  'health-check',
  'health-check-path',
  'health-check-interval',
  'health-check-rise',
  'health-check-fall',
  'grpc-services',
  'ssl-services',
  'websocket-services',
  'sticky-cookie-services',
]
