import { z } from 'zod'
import {
  absolutePath,
  absoluteUrl,
  type BackendProtocol,
  cidrList,
  cidrListWithExceptions,
  cookieDomain,
  cookieName,
  corsOrigins,
  flag,
  haproxySize,
  haproxyTime,
  hashBy,
  headerLines,
  headerNames,
  headerNamesOrStar,
  hostList,
  methodList,
  objectRef,
  oneOf,
  REDIRECT_CODES,
  rewriteTarget,
  sameSite,
  seconds,
  statusCode,
} from './values.ts'
import { canaryCookie, canaryHeader, canaryHeaderPattern, canaryHeaderValue, canaryWeight, canaryWeightTotal } from './canary-values.ts'
import { nextUpstream, nextUpstreamTries } from './retry-values.ts'
import { serviceNames, stickyCookieServices } from './service-values.ts'
import { checkCount, checkPath } from './health-values.ts'
import { burstMultiplier, limitCount, limitPeriod, refusalStatus, tableSize } from './limit-values.ts'
import { authMethod, authRequestHeaders, authResponseHeaders, authSignin, authUrl, redirectParam, requestRedirect } from './external-auth-values.ts'
import { verifyClient, verifyDepth } from './client-cert-features.ts'
import { mirrorTarget } from './mirror-values.ts'
import { subjectPattern } from './match-cn.ts'

/**
 * The typed annotation model: one entry per feature, keyed by its name. Each feature has a
 * canonical `hapedge.io/<name>` annotation whose schema turns the string into the typed value; the
 * other controllers' spellings (spellings.ts) land on the same type. Names follow ingress-nginx's
 * where it has the feature (issue 20 lists them so), and the settings ConfigMap's (`timeout-*`,
 * `load-balance`) where hapedge already had one.
 *
 * `restrictsAccess`: who may reach the routes depends on it. A value hapedge cannot read for such a
 * feature refuses the Ingress (fail closed) instead of being skipped with a warning.
 */
interface Feature<T> {
  schema: z.ZodType<T, string>
  restrictsAccess?: true
  /** What it does, for the notes and the README's compatibility table. */
  summary: string
}

const feature = <T>(schema: z.ZodType<T, string>, summary: string, restrictsAccess?: true): Feature<T> =>
  restrictsAccess ? { schema, summary, restrictsAccess } : { schema, summary }

/** `auth-secret-type`: how the Secret holds users. `nginx-htpasswd` is NGINX Inc.'s (an htpasswd file under `htpasswd`). */
export type AuthSecretType = 'auth-file' | 'auth-map' | 'nginx-htpasswd'

/** How `use-regex` treats an Ingress's paths: ingress-nginx's regexes are case-insensitive, NGINX Inc. lets users choose, or match paths exactly. */
export type RegexPaths = 'off' | 'case-insensitive' | 'case-sensitive' | 'exact'

/** ingress-nginx's `on`/`off` switches, as booleans. */
const onOff = oneOf({ on: true, off: false }, '"on" or "off"')

/** A Secret holding a CA bundle, and the data key the bundle is under (`ca.crt`, or haproxytech's `tls.crt`). */
export function caSecret(key: string) {
  return objectRef.transform((ref) => ({ ...ref, key }))
}

function hostListOne() {
  return hostList.transform((hosts, ctx) => {
    if (hosts.length === 1) return hosts[0]!
    ctx.addIssue({ code: 'custom', message: 'must be one host name' })
    return z.NEVER
  })
}

export const FEATURES = {
  // HTTPS enforcement (ingress-nginx: Server-side HTTPS enforcement through redirect).
  'ssl-redirect': feature(flag, 'Redirect HTTP to HTTPS when the Ingress has TLS.'),
  'force-ssl-redirect': feature(flag, 'Redirect HTTP to HTTPS even without TLS on the Ingress (TLS ends before hapedge).'),
  'ssl-redirect-code': feature(statusCode(REDIRECT_CODES), 'Status code of the HTTPS redirect.'),
  hsts: feature(flag, 'Send Strict-Transport-Security on HTTPS responses.'),
  'hsts-max-age': feature(seconds, 'HSTS max-age, in seconds.'),
  'hsts-include-subdomains': feature(flag, 'HSTS includeSubDomains.'),
  'hsts-preload': feature(flag, 'HSTS preload.'),
  // Redirects.
  'permanent-redirect': feature(absoluteUrl, 'Answer every request with a redirect to this URL (301 unless permanent-redirect-code).'),
  'permanent-redirect-code': feature(statusCode(REDIRECT_CODES), 'Status code of permanent-redirect.'),
  'temporal-redirect': feature(absoluteUrl, 'Answer every request with a redirect to this URL (302 unless temporal-redirect-code).'),
  'temporal-redirect-code': feature(statusCode(REDIRECT_CODES), 'Status code of temporal-redirect.'),
  'from-to-www-redirect': feature(flag, 'Redirect www.<host> to <host> or the reverse, whichever the Ingress does not name.'),
  'app-root': feature(absolutePath, 'Redirect requests for "/" to this path.'),
  // Rewrites.
  'rewrite-target': feature(rewriteTarget, 'Replace the matched path prefix (or, with use-regex, the whole path, with $1… captures).'),
  'use-regex': feature(
    oneOf(
      { true: 'case-insensitive', false: 'off', 'case-insensitive': 'case-insensitive', 'case-sensitive': 'case-sensitive', exact: 'exact' } as const,
      '"true", "false", "case-sensitive", "case-insensitive" or "exact"',
    ),
    'Read the Ingress paths as regular expressions ("exact": as whole paths, each an Exact path).',
  ),
  'x-forwarded-prefix': feature(absolutePath, 'Send X-Forwarded-Prefix with this value.'),
  // Timeouts, in milliseconds (defaults: the settings ConfigMap's timeout-connect and timeout-server).
  'timeout-connect': feature(haproxyTime, "HAProxy timeout connect for this Ingress's backends."),
  'timeout-server': feature(haproxyTime, 'HAProxy timeout server (inactivity while reading or sending to the backend).'),
  'timeout-tunnel': feature(haproxyTime, 'HAProxy timeout tunnel (WebSocket and other upgraded connections).'),
  // Body size.
  'proxy-body-size': feature(haproxySize, 'Largest request body accepted (413 above it); null is no limit.'),
  // Source ranges (ingress-nginx: Allowlist, Denylist).
  'allowlist-source-range': feature(cidrListWithExceptions, 'Only these client addresses may reach the routes (403 otherwise).', true),
  'denylist-source-range': feature(cidrListWithExceptions, 'These client addresses are refused (403).', true),
  // Basic authentication.
  'auth-type': feature(oneOf({ basic: 'basic' } as const, '"basic" (the only method hapedge checks)'), 'HTTP authentication method.', true),
  'auth-secret': feature(objectRef, 'The Secret holding the users and their password hashes.', true),
  'auth-secret-type': feature(
    oneOf({ 'auth-file': 'auth-file', 'auth-map': 'auth-map' } as Record<string, AuthSecretType>, '"auth-file" or "auth-map"'),
    'How the Secret holds users: an htpasswd file under `auth`, or one key per user.',
    true,
  ),
  'auth-realm': feature(z.string().regex(/^[\u0020-\u007e]{1,128}$/, 'must be 1 to 128 printable ASCII characters'), 'The realm of the 401 answer.'),
  // External authentication (ingress-nginx: External Authentication): a request to an auth service before each request (external-auth.ts).
  'auth-url': feature(authUrl, 'The auth service asked before each request: a 2xx lets it through, 401 and 403 are answered, anything else is a 500.', true),
  'auth-method': feature(authMethod, 'The method of the request to the auth service (GET unless set).', true),
  'auth-signin': feature(authSignin, 'Where a 401 of the auth service is redirected (302), with the original URL in auth-signin-redirect-param.'),
  'auth-signin-redirect-param': feature(redirectParam, 'The query parameter of auth-signin the original URL is sent in ("rd" unless set; empty: none).'),
  'auth-response-headers': feature(
    authResponseHeaders,
    "Headers of the auth service's 2xx answer set on the request the Service receives (the client's own removed).",
    true,
  ),
  'auth-request-redirect': feature(requestRedirect, 'The X-Auth-Request-Redirect header sent to the auth service (the request URI unless set).'),
  'auth-request-headers': feature(authRequestHeaders, 'The client\'s headers the auth service is sent: all unless set, as ingress-nginx sends them; "-" none.'),
  // Client certificates (ingress-nginx: Client Certificate Authentication): per host, through SNI (client-cert.ts).
  'auth-tls-secret': feature(caSecret('ca.crt'), "Secret whose CA bundle (ca.crt) verifies the clients' certificates on the host (mTLS).", true),
  'auth-tls-verify-client': feature(
    verifyClient,
    'Client certificate required (on, the default with auth-tls-secret), verified when sent (optional), passed unverified (optional_no_ca) or not asked for (off).',
    true,
  ),
  'auth-tls-error-page': feature(absoluteUrl, 'Where a client without a valid certificate is redirected (302) instead of answered 495 or 496.'),
  'auth-tls-pass-certificate-to-upstream': feature(flag, "Send the client's certificate to the Service in ssl-client-cert (URL-encoded PEM)."),
  'auth-tls-verify-depth': feature(
    verifyDepth,
    "The most intermediate certificates between a client's and a self-signed CA, counted in the CA bundle (1 unless set, as ingress-nginx; 0 reads as 1).",
    true,
  ),
  'auth-tls-match-cn': feature(
    subjectPattern,
    "A regular expression the client certificate's subject DN (RFC 2253) must hold, as ingress-nginx searches $ssl_client_s_dn; 403 otherwise.",
    true,
  ),
  // CORS.
  'enable-cors': feature(flag, 'Answer CORS preflights and add CORS headers.'),
  'cors-allow-origin': feature(corsOrigins, 'Allowed origins: "*" or a list (the matching one is echoed).'),
  'cors-allow-methods': feature(methodList, 'Access-Control-Allow-Methods.'),
  'cors-allow-headers': feature(headerNames, 'Access-Control-Allow-Headers.'),
  'cors-expose-headers': feature(headerNamesOrStar, 'Access-Control-Expose-Headers.'),
  'cors-allow-credentials': feature(flag, 'Access-Control-Allow-Credentials.'),
  'cors-max-age': feature(seconds, 'Access-Control-Max-Age, in seconds.'),
  // Session affinity.
  affinity: feature(oneOf({ cookie: 'cookie' } as const, '"cookie"'), 'Keep a client on one server with a cookie.'),
  'affinity-mode': feature(
    oneOf({ balanced: 'balanced', persistent: 'persistent' } as const, '"balanced" or "persistent"'),
    'Whether sessions move when servers are added.',
  ),
  'session-cookie-name': feature(cookieName, "The affinity cookie's name."),
  'session-cookie-path': feature(absolutePath, "The affinity cookie's Path."),
  'session-cookie-domain': feature(cookieDomain, "The affinity cookie's Domain."),
  'session-cookie-expires': feature(seconds, "The affinity cookie's Expires, in seconds from now."),
  'session-cookie-max-age': feature(seconds, "The affinity cookie's Max-Age, in seconds."),
  'session-cookie-secure': feature(flag, "The affinity cookie's Secure attribute."),
  'session-cookie-samesite': feature(sameSite, "The affinity cookie's SameSite attribute."),
  'session-cookie-partitioned': feature(flag, "The affinity cookie's Partitioned attribute (CHIPS)."),
  'session-cookie-conditional-samesite-none': feature(flag, 'Leave SameSite=None off the affinity cookie for browsers known to reject it.'),
  // Backends.
  'backend-protocol': feature(
    oneOf({ http: 'HTTP', https: 'HTTPS', grpc: 'GRPC', grpcs: 'GRPCS', h2c: 'H2C' } as Record<string, BackendProtocol>, 'HTTP, HTTPS, GRPC, GRPCS or H2C'),
    'How hapedge speaks to the backends.',
  ),
  'proxy-ssl-secret': feature(caSecret('ca.crt'), "Secret whose CA bundle verifies the backends' certificates."),
  'proxy-ssl-verify': feature(onOff, "Verify the backends' certificates against proxy-ssl-secret."),
  'proxy-ssl-name': feature(hostListOne(), "Name verified in the backend's certificate (and sent as SNI with proxy-ssl-server-name)."),
  'proxy-ssl-server-name': feature(onOff, 'Send SNI to the backends.'),
  'load-balance': feature(
    oneOf({ roundrobin: 'roundrobin', leastconn: 'leastconn', random: 'random' } as const, '"roundrobin", "leastconn" or "random"'),
    'Load-balancing algorithm.',
  ),
  'upstream-hash-by': feature(hashBy, 'Consistent hash of the source, the URI, a header or a cookie.'),
  'service-upstream': feature(flag, "Send to the Service's ClusterIP instead of its endpoints."),
  'upstream-vhost': feature(hostListOne(), 'Host header sent to the backends.'),
  'proxy-next-upstream': feature(
    nextUpstream,
    'When a failed request is tried again on another server: NGINX conditions (error, timeout, invalid_header, http_5xx, http_403, http_404, non_idempotent, off).',
  ),
  'proxy-next-upstream-tries': feature(nextUpstreamTries, 'How many servers a request may be tried on, the first included.'),
  // Active health checks of the backends' servers.
  'health-check': feature(flag, 'Check the servers actively (TCP, or HTTP with health-check-path): a failing one leaves rotation.'),
  'health-check-path': feature(checkPath, 'The path an HTTP health check GETs; a 2xx or 3xx answer is healthy.'),
  'health-check-interval': feature(haproxyTime, 'Time between two checks of a server.'),
  'health-check-rise': feature(checkCount, 'Checks in a row that make a server healthy again.'),
  'health-check-fall': feature(checkCount, 'Checks in a row that take a server out of rotation.'),
  // Per Service of the Ingress (NGINX Inc.'s).
  'grpc-services': feature(serviceNames, "The Ingress's Services spoken to with gRPC (HTTP/2; over TLS with ssl-services)."),
  'ssl-services': feature(serviceNames, "The Ingress's Services spoken to over TLS, unverified (HTTPS; GRPCS with grpc-services)."),
  'websocket-services': feature(serviceNames, "The Ingress's Services that take WebSocket: HAProxy passes upgrades on every route."),
  'sticky-cookie-services': feature(
    stickyCookieServices,
    'Cookie affinity per Service: serviceName=<Service> <cookie> [expires= domain= path= httponly secure samesite=].',
  ),
  // Headers.
  'request-set-header': feature(headerLines, 'Request headers set before the backend, one "Name value" per line.'),
  'request-add-header': feature(headerLines, 'Request headers added before the backend, one "Name value" per line.'),
  'request-del-header': feature(headerNames, 'Request headers removed before the backend.'),
  'response-set-header': feature(headerLines, 'Response headers set, one "Name value" per line.'),
  'response-add-header': feature(headerLines, 'Response headers added, one "Name value" per line.'),
  'response-del-header': feature(headerNames, 'Response headers removed.'),
  'custom-headers': feature(objectRef, 'A ConfigMap whose entries are set as response headers.'),
  // Canary (ingress-nginx: Canary): a second Ingress for the same host and path takes some of its requests.
  canary: feature(flag, 'This Ingress is a canary of the Ingress that serves the same host and path.'),
  'canary-weight': feature(canaryWeight, 'How many requests of canary-weight-total go to the canary.'),
  'canary-weight-total': feature(canaryWeightTotal, 'The total canary-weight is a part of (100 unless set).'),
  'canary-by-header': feature(canaryHeader, 'A request header that sends the request to the canary ("always") or not ("never").'),
  'canary-by-header-value': feature(canaryHeaderValue, "The value of canary-by-header's header that sends the request to the canary."),
  'canary-by-header-pattern': feature(
    canaryHeaderPattern,
    "Values of canary-by-header's header that send the request to the canary: whole-value alternatives such as ^(alpha|beta)$.",
  ),
  'canary-by-cookie': feature(canaryCookie, 'A cookie that sends the request to the canary ("always") or not ("never").'),
  // Rate and connection limits per client address (ingress-nginx: Rate Limiting; haproxytech: Rate Limit): limits.ts.
  'limit-rps': feature(limitCount, 'Requests a second from one client address (with a burst of limit-burst-multiplier times it).'),
  'limit-rpm': feature(limitCount, 'Requests a minute from one client address (with a burst of limit-burst-multiplier times it).'),
  'limit-connections': feature(limitCount, 'Requests in progress at once from one client address.'),
  'limit-burst-multiplier': feature(burstMultiplier, 'The burst limit-rps and limit-rpm allow, as a multiple of the rate (5 unless set; 0 is none).'),
  'limit-allowlist': feature(cidrList, 'Client addresses the limits do not apply to.'),
  'limit-status-code': feature(refusalStatus, 'Status of a refused request (unless set: the settings’ limit-req-status-code, limit-conn-status-code, or 429).'),
  'rate-limit-requests': feature(limitCount, 'Requests from one client address in rate-limit-period (no burst).'),
  'rate-limit-period': feature(limitPeriod, 'The period rate-limit-requests counts over (1s unless set).'),
  'rate-limit-size': feature(tableSize, 'How many client addresses the table of rate-limit-requests holds.'),
  // Traffic mirroring (ingress-nginx: Mirror): a copy of each request sent by the shipped Lua, its answer discarded (ingress-mirror.ts).
  'mirror-target': feature(mirrorTarget, 'The URL each request is copied to ($request_uri: its path and query); the answer is discarded.'),
  'mirror-host': feature(hostListOne(), "The Host header of the copies (the mirror-target URL's host unless set)."),
  'mirror-request-body': feature(onOff, 'Whether the copies carry the request body ("on" unless set).'),
  // Hosts.
  'server-alias': feature(hostList, "More host names served like the Ingress's own."),
  // NGINX Inc.'s mergeable Ingresses: one master sets a host, its minions add paths to it.
  'mergeable-ingress-type': feature(
    oneOf({ master: 'master', minion: 'minion' } as const, '"master" or "minion"'),
    "A master sets its host's certificate and host-wide settings and serves no path; a minion adds paths and inherits the master's settings.",
  ),
} satisfies Record<string, Feature<unknown>>

export type FeatureName = keyof typeof FEATURES
export type FeatureValue<F extends FeatureName> = z.output<(typeof FEATURES)[F]['schema']>

/** What an Ingress's annotations ask for, typed; a feature absent here was not asked for. */
export type Features = { [F in FeatureName]?: FeatureValue<F> }

/** Whether annotations ask for no feature at all (most Ingresses): a reading of them has nothing to build. */
export function asksNothing(features: Features): boolean {
  for (const _ in features) return false
  return true
}

export const HAPEDGE_PREFIX = 'hapedge.io/'
export const canonicalKey = (feature: FeatureName) => `${HAPEDGE_PREFIX}${feature}`

export const featureNames = Object.keys(FEATURES) as FeatureName[]

export function restrictsAccess(feature: FeatureName): boolean {
  return (FEATURES[feature] as Feature<unknown>).restrictsAccess === true
}
