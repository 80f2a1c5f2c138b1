import { z } from 'zod'
import { quote } from '../syntax/fields.ts'
import { type AuthSecretType, caSecret, FEATURES, type FeatureName, type Features, type FeatureValue, featureNames } from './features.ts'
import {
  absolutePath,
  absoluteUrl,
  type BackendProtocol,
  cidrList,
  cidrListWithExceptions,
  cookieName,
  corsOriginOrPattern,
  corsOrigins,
  haproxySize,
  haproxyTime,
  headerLines,
  headerNames,
  headerNamesOrStar,
  headerPairs,
  hostList,
  Invalid,
  invalid,
  looseFlag,
  methodList,
  nginxHashBy,
  nginxSize,
  nginxTime,
  objectRef,
  oneOf,
  REDIRECT_CODES,
  rewriteTarget,
  sameSite,
  seconds,
  secondsFromHaproxyTime,
  secondsTime,
  statusCode,
} from './values.ts'
import { nginxCanaryWeightTotal } from './canary-values.ts'
import { haproxytechCheckHttp } from './health-values.ts'
import { nginxRate } from './limit-values.ts'
import { haproxyIngressSignin, haproxyIngressSucceedHeaders } from './external-auth-values.ts'
import type { Vocabulary } from './vocabularies.ts'

/** Reads another annotation under the same prefix, for the few values whose meaning depends on a neighbour. */
export type Sibling = (suffix: string) => string | undefined

/**
 * One controller's spelling of a feature: the key (without prefix), how its value is written, what
 * it implies for other features when they are not set (a controller's own defaults that differ from
 * ingress-nginx's), and where the mapping is documented (a section of that controller's page, DOCS).
 */
export interface Spelling {
  vocabulary: Vocabulary
  suffix: string
  feature: FeatureName
  schema: (sibling: Sibling) => z.ZodType<unknown, string>
  implies?: (value: unknown, sibling: Sibling) => Features
  doc: string
}

type SchemaOf<F extends FeatureName> = z.ZodType<FeatureValue<F>, string>

interface SpellingOptions<F extends FeatureName> {
  /** How this controller writes the value, when not as the canonical key does. */
  schema?: SchemaOf<F> | ((sibling: Sibling) => SchemaOf<F>)
  implies?: (value: FeatureValue<F>, sibling: Sibling) => Features
}

function spelling<F extends FeatureName>(vocabulary: Vocabulary, suffix: string, feature: F, doc: string, options: SpellingOptions<F> = {}): Spelling {
  const schema = options.schema ?? (FEATURES[feature].schema as unknown as SchemaOf<F>)
  return {
    vocabulary,
    suffix,
    feature,
    schema: typeof schema === 'function' ? schema : () => schema,
    ...(options.implies ? { implies: options.implies as (value: unknown, sibling: Sibling) => Features } : {}),
    doc,
  }
}

const BOOLEAN = looseFlag

/** A vocabulary's spelling function, typed so that each schema must produce its feature's value. */
const speller =
  (vocabulary: Vocabulary) =>
  <F extends FeatureName>(suffix: string, feature: F, doc: string, options?: SpellingOptions<F>) =>
    spelling(vocabulary, suffix, feature, doc, options)

/** hapedge's own: `hapedge.io/<feature>` for every feature, with the feature's schema. */
const hapedge = featureNames.map((feature) => spelling('hapedge', feature, feature, 'canonical'))

// kubernetes/ingress-nginx docs/user-guide/nginx-configuration/annotations.md (section anchors below)
// and annotations-risk.md (its complete list, generated from the parsers).
const nginx = speller('ingress-nginx')

const ingressNginx: Spelling[] = [
  nginx('ssl-redirect', 'ssl-redirect', '#server-side-https-enforcement-through-redirect', { schema: BOOLEAN }),
  nginx('force-ssl-redirect', 'force-ssl-redirect', '#server-side-https-enforcement-through-redirect', { schema: BOOLEAN }),
  nginx('permanent-redirect', 'permanent-redirect', '#permanent-redirect', { schema: absoluteUrl }),
  nginx('permanent-redirect-code', 'permanent-redirect-code', '#permanent-redirect-code', { schema: statusCode(REDIRECT_CODES) }),
  nginx('temporal-redirect', 'temporal-redirect', '#temporal-redirect', { schema: absoluteUrl }),
  nginx('temporal-redirect-code', 'temporal-redirect-code', 'annotations-risk.md (Redirect)', { schema: statusCode(REDIRECT_CODES) }),
  nginx('from-to-www-redirect', 'from-to-www-redirect', '#redirect-fromto-www', { schema: BOOLEAN }),
  nginx('app-root', 'app-root', '#rewrite', { schema: absolutePath }),
  // "if the rewrite-target annotation is used on any Ingress for a given host, then the case insensitive regular expression
  // location modifier will be enforced" (ingress-path-matching.md): hapedge reads that Ingress's own paths as regular expressions.
  nginx('rewrite-target', 'rewrite-target', '#rewrite', { schema: rewriteTarget, implies: () => ({ 'use-regex': 'case-insensitive' as const }) }),
  // "the case insensitive regular expression location modifier will be enforced" (#use-regex).
  nginx('use-regex', 'use-regex', '#use-regex', { schema: BOOLEAN.transform((on) => (on ? 'case-insensitive' : 'off') as 'case-insensitive' | 'off') }),
  nginx('x-forwarded-prefix', 'x-forwarded-prefix', '#x-forwarded-prefix-header', { schema: absolutePath }),
  // "All timeout values are unitless and in seconds" (#custom-timeouts). HAProxy's `timeout server` bounds
  // both reading from and sending to the server, so read and send land on the same feature.
  nginx('proxy-connect-timeout', 'timeout-connect', '#custom-timeouts', { schema: secondsTime }),
  nginx('proxy-read-timeout', 'timeout-server', '#custom-timeouts', { schema: secondsTime }),
  nginx('proxy-send-timeout', 'timeout-server', '#custom-timeouts', { schema: secondsTime }),
  nginx('proxy-body-size', 'proxy-body-size', '#custom-max-body-size', { schema: nginxSize }),
  nginx('allowlist-source-range', 'allowlist-source-range', 'annotations-risk.md (Allowlist)', { schema: cidrList }),
  nginx('whitelist-source-range', 'allowlist-source-range', '#whitelist-source-range', { schema: cidrList }),
  nginx('denylist-source-range', 'denylist-source-range', '#denylist-source-range', { schema: cidrList }),
  // auth-type: "basic or digest" (#authentication); digest fails the schema, which refuses the Ingress.
  nginx('auth-type', 'auth-type', '#authentication'),
  nginx('auth-secret', 'auth-secret', '#authentication', { schema: objectRef }),
  nginx('auth-secret-type', 'auth-secret-type', '#authentication'),
  nginx('auth-realm', 'auth-realm', '#authentication'),
  // "auth-tls-secret: namespace/secretName … the secret must contain ca.crt"; verify-client "on", "off", "optional",
  // "optional_no_ca"; error-page; pass-certificate-to-upstream "in the header ssl-client-cert" (#client-certificate-authentication).
  nginx('auth-tls-secret', 'auth-tls-secret', '#client-certificate-authentication', { schema: caSecret('ca.crt') }),
  nginx('auth-tls-verify-client', 'auth-tls-verify-client', '#client-certificate-authentication'),
  nginx('auth-tls-error-page', 'auth-tls-error-page', '#client-certificate-authentication'),
  nginx('auth-tls-pass-certificate-to-upstream', 'auth-tls-pass-certificate-to-upstream', '#client-certificate-authentication', { schema: BOOLEAN }),
  // "auth-tls-verify-depth: The validation depth between the provided client certificate and the Certification Authority chain" (default 1).
  nginx('auth-tls-verify-depth', 'auth-tls-verify-depth', '#client-certificate-authentication'),
  // "auth-tls-match-cn: Adds a sanity check for the CN of the client certificate that is sent over using a string / regex starting with "CN="".
  nginx('auth-tls-match-cn', 'auth-tls-match-cn', '#client-certificate-authentication'),
  // "auth-url … auth-method … auth-signin … auth-signin-redirect-param … auth-response-headers … auth-request-redirect" (#external-authentication).
  nginx('auth-url', 'auth-url', '#external-authentication'),
  nginx('auth-method', 'auth-method', '#external-authentication'),
  nginx('auth-signin', 'auth-signin', '#external-authentication'),
  nginx('auth-signin-redirect-param', 'auth-signin-redirect-param', '#external-authentication'),
  nginx('auth-response-headers', 'auth-response-headers', '#external-authentication'),
  nginx('auth-request-redirect', 'auth-request-redirect', '#external-authentication'),
  // "mirror-target … mirror-request-body … mirror-host" (#mirror): the copy's URL, whether it carries the body, its Host.
  nginx('mirror-target', 'mirror-target', '#mirror'),
  nginx('mirror-request-body', 'mirror-request-body', '#mirror'),
  nginx('mirror-host', 'mirror-host', '#mirror'),
  nginx('enable-cors', 'enable-cors', '#enable-cors', { schema: BOOLEAN }),
  nginx('cors-allow-origin', 'cors-allow-origin', '#enable-cors', { schema: corsOrigins }),
  nginx('cors-allow-methods', 'cors-allow-methods', '#enable-cors', { schema: methodList }),
  nginx('cors-allow-headers', 'cors-allow-headers', '#enable-cors', { schema: headerNames }),
  nginx('cors-expose-headers', 'cors-expose-headers', '#enable-cors', { schema: headerNamesOrStar }),
  nginx('cors-allow-credentials', 'cors-allow-credentials', '#enable-cors', { schema: BOOLEAN }),
  nginx('cors-max-age', 'cors-max-age', '#enable-cors', { schema: seconds }),
  nginx('affinity', 'affinity', '#session-affinity'),
  nginx('affinity-mode', 'affinity-mode', '#session-affinity'),
  nginx('session-cookie-name', 'session-cookie-name', '#cookie-affinity', { schema: cookieName }),
  nginx('session-cookie-path', 'session-cookie-path', '#cookie-affinity', { schema: absolutePath }),
  nginx('session-cookie-domain', 'session-cookie-domain', '#cookie-affinity'),
  // "its value is a number of seconds until the cookie expires" (internal/ingress/annotations/sessionaffinity/main.go).
  nginx('session-cookie-expires', 'session-cookie-expires', 'annotations-risk.md (SessionAffinity); sessionaffinity/main.go', { schema: seconds }),
  nginx('session-cookie-max-age', 'session-cookie-max-age', 'annotations-risk.md (SessionAffinity); sessionaffinity/main.go', { schema: seconds }),
  nginx('session-cookie-secure', 'session-cookie-secure', 'annotations-risk.md (SessionAffinity)', { schema: BOOLEAN }),
  nginx('session-cookie-samesite', 'session-cookie-samesite', '#cookie-affinity', { schema: sameSite }),
  nginx('session-cookie-partitioned', 'session-cookie-partitioned', 'annotations-risk.md (SessionAffinity)', { schema: BOOLEAN }),
  // "omits SameSite=None for older browsers which reject cookies with SameSite=None" (#cookie-affinity).
  nginx('session-cookie-conditional-samesite-none', 'session-cookie-conditional-samesite-none', '#cookie-affinity', { schema: BOOLEAN }),
  // "Valid Values: HTTP, HTTPS, GRPC, GRPCS, AJP and FCGI" (#backend-protocol): AJP and FCGI fail the schema.
  nginx('backend-protocol', 'backend-protocol', '#backend-protocol', {
    schema: oneOf(
      { http: 'HTTP', https: 'HTTPS', grpc: 'GRPC', grpcs: 'GRPCS' } as Record<string, BackendProtocol>,
      'HTTP, HTTPS, GRPC or GRPCS (hapedge speaks no AJP or FastCGI)',
    ),
  }),
  nginx('proxy-ssl-secret', 'proxy-ssl-secret', '#backend-certificate-authentication', { schema: caSecret('ca.crt') }),
  nginx('proxy-ssl-verify', 'proxy-ssl-verify', '#backend-certificate-authentication'),
  nginx('proxy-ssl-name', 'proxy-ssl-name', '#backend-certificate-authentication'),
  nginx('proxy-ssl-server-name', 'proxy-ssl-server-name', '#backend-certificate-authentication'),
  // "similar to load-balance in ConfigMap" (#custom-nginx-load-balancing); its values round_robin and ewma were not in the
  // stored pages read here (configmap.md was not read; secondary sources agree). EWMA has no HAProxy algorithm.
  nginx('load-balance', 'load-balance', '#custom-nginx-load-balancing', {
    schema: oneOf({ round_robin: 'roundrobin' } as const, '"round_robin" (EWMA has no HAProxy equivalent)'),
  }),
  nginx('upstream-hash-by', 'upstream-hash-by', '#custom-nginx-upstream-hashing', { schema: nginxHashBy }),
  nginx('service-upstream', 'service-upstream', '#service-upstream', { schema: BOOLEAN }),
  nginx('upstream-vhost', 'upstream-vhost', '#custom-nginx-upstream-vhost'),
  // "proxy_next_upstream" and "proxy_next_upstream_tries" of NGINX (#custom-timeouts lists them with the timeouts).
  nginx('proxy-next-upstream', 'proxy-next-upstream', '#custom-timeouts'),
  nginx('proxy-next-upstream-tries', 'proxy-next-upstream-tries', '#custom-timeouts'),
  // "namespace/configmap … contains custom headers … uses more_set_headers" (response headers).
  nginx('custom-headers', 'custom-headers', 'annotations-risk.md (CustomHeaders)', { schema: objectRef }),
  nginx('server-alias', 'server-alias', '#server-alias', { schema: hostList }),
  nginx('canary', 'canary', '#canary', { schema: BOOLEAN }),
  nginx('canary-weight', 'canary-weight', '#canary'),
  nginx('canary-weight-total', 'canary-weight-total', '#canary; its balancer.lua draws from at least 100', { schema: nginxCanaryWeightTotal }),
  nginx('canary-by-header', 'canary-by-header', '#canary'),
  nginx('canary-by-header-value', 'canary-by-header-value', '#canary'),
  nginx('canary-by-header-pattern', 'canary-by-header-pattern', '#canary'),
  nginx('canary-by-cookie', 'canary-by-cookie', '#canary'),
  // #rate-limiting: per client address, per Ingress; burst = rate × limit-burst-multiplier (5), `nodelay` (route-limits.ts).
  nginx('limit-rps', 'limit-rps', '#rate-limiting'),
  nginx('limit-rpm', 'limit-rpm', '#rate-limiting'),
  nginx('limit-connections', 'limit-connections', '#rate-limiting'),
  nginx('limit-burst-multiplier', 'limit-burst-multiplier', '#rate-limiting'),
  nginx('limit-allowlist', 'limit-allowlist', '#rate-limiting'),
  nginx('limit-whitelist', 'limit-allowlist', '#rate-limiting (its older name)'),
]

// jcmoraisjr/haproxy-ingress docs/content/en/docs/configuration/keys.md (section anchors below). Only
// keys of the Host, Backend and Path scopes are read from Ingresses; Global ones are ConfigMap-only.
const hi = speller('haproxy-ingress')

/** haproxy-ingress `backend-protocol` with `secure-backends`: "a non SSL/TLS configuration does not override secure-backends". */
function haproxyIngressProtocol(protocol: string | undefined, secure: string | undefined): BackendProtocol | Invalid {
  const http2 = { h2: true, grpc: true, 'h2-ssl': true, grpcs: true }[protocol?.trim().toLowerCase() ?? ''] === true
  const tls = ['h1-ssl', 'https', 'h2-ssl', 'grpcs'].includes(protocol?.trim().toLowerCase() ?? '') || secure?.trim().toLowerCase() === 'true'
  if (protocol !== undefined && !['h1', 'http', 'h1-ssl', 'https', 'h2', 'grpc', 'h2-ssl', 'grpcs'].includes(protocol.trim().toLowerCase()))
    return invalid(`${quote(protocol)} must be h1, h2, h1-ssl or h2-ssl (or http, grpc, https, grpcs)`)
  return http2 ? (tls ? 'GRPCS' : 'H2C') : tls ? 'HTTPS' : 'HTTP'
}

/** A protocol computed from the key and its siblings, once the key's own value (`base`) has been checked. */
const fromSiblings = (read: () => BackendProtocol | Invalid, base: z.ZodType<unknown, string> = z.string()) =>
  base.transform((_, ctx) => {
    const result = read()
    if (!(result instanceof Invalid)) return result
    ctx.addIssue({ code: 'custom', message: result.message })
    return z.NEVER
  })

const haproxyIngress: Spelling[] = [
  hi('ssl-redirect', 'ssl-redirect', '#ssl-redirect', { schema: BOOLEAN }),
  hi('hsts', 'hsts', '#hsts', { schema: BOOLEAN }),
  hi('hsts-max-age', 'hsts-max-age', '#hsts', { schema: seconds }),
  hi('hsts-include-subdomains', 'hsts-include-subdomains', '#hsts', { schema: BOOLEAN }),
  hi('hsts-preload', 'hsts-preload', '#hsts', { schema: BOOLEAN }),
  // redirect-to: "Defines the destination URL"; redirect-to-code is Global with 302 by default (#redirect).
  hi('redirect-to', 'temporal-redirect', '#redirect', { schema: absoluteUrl }),
  hi('app-root', 'app-root', '#app-root', { schema: absolutePath }),
  hi('rewrite-target', 'rewrite-target', '#rewrite-target', { schema: rewriteTarget }),
  // "The unit defaults to milliseconds if missing" (#timeout).
  hi('timeout-connect', 'timeout-connect', '#timeout', { schema: haproxyTime }),
  hi('health-check-uri', 'health-check-path', '#health-check'),
  hi('health-check-interval', 'health-check-interval', '#health-check', { schema: haproxyTime }),
  hi('health-check-rise-count', 'health-check-rise', '#health-check'),
  hi('health-check-fall-count', 'health-check-fall', '#health-check'),
  hi('timeout-server', 'timeout-server', '#timeout', { schema: haproxyTime }),
  hi('timeout-tunnel', 'timeout-tunnel', '#timeout', { schema: haproxyTime }),
  hi('proxy-body-size', 'proxy-body-size', '#proxy-body-size', { schema: haproxySize }),
  // "`whitelist-source-range` is an alias … ignored if `allowlist-source-range` is declared"; entries may be `!` exceptions (#allowlist).
  hi('allowlist-source-range', 'allowlist-source-range', '#allowlist', { schema: cidrListWithExceptions }),
  hi('whitelist-source-range', 'allowlist-source-range', '#allowlist', { schema: cidrListWithExceptions }),
  hi('denylist-source-range', 'denylist-source-range', '#allowlist', { schema: cidrListWithExceptions }),
  // "configure `auth-secret` to enable basic authentication"; the secret's key `auth` holds htpasswd lines (#auth-basic).
  hi('auth-secret', 'auth-secret', '#auth-basic', {
    schema: z
      .string()
      .refine((value) => !value.startsWith('file://'), "a file:// user list is on the controller's disk, which hapedge cannot read")
      .pipe(objectRef),
    // Under the shared ingress.kubernetes.io/ prefix, haproxytech's `auth-type: basic-auth` means its one-key-per-user Secret.
    implies: (_, sibling) => ({ 'auth-type': 'basic', 'auth-secret-type': sibling('auth-type')?.trim() === 'basic-auth' ? 'auth-map' : 'auth-file' }),
  }),
  hi('auth-realm', 'auth-realm', '#auth-basic'),
  // "auth-tls-secret … the secret must have a ca.crt key"; verify-client "off, optional, on, optional_no_ca"; error-page (#auth-tls).
  hi('auth-tls-secret', 'auth-tls-secret', '#auth-tls', { schema: caSecret('ca.crt') }),
  hi('auth-tls-verify-client', 'auth-tls-verify-client', '#auth-tls'),
  hi('auth-tls-error-page', 'auth-tls-error-page', '#auth-tls'),
  // #auth-external: "auth-signin … is parsed by haproxy as a log-format string and the result is copied verbatim to the Location"
  // (no original URL added); "auth-headers-succeed … All HTTP headers will be copied if not declared" (hapedge copies only named ones).
  hi('auth-url', 'auth-url', '#auth-external'),
  hi('auth-method', 'auth-method', '#auth-external'),
  hi('auth-signin', 'auth-signin', '#auth-external', { schema: haproxyIngressSignin, implies: () => ({ 'auth-signin-redirect-param': '' }) }),
  hi('auth-headers-succeed', 'auth-response-headers', '#auth-external', { schema: haproxyIngressSucceedHeaders }),
  hi('auth-headers-request', 'auth-request-headers', '#auth-external'),
  // "Up to v0.12 the configuration key `auth-type` was mandatory … deprecated" (#auth-basic); haproxytech's value is basic-auth.
  hi('auth-type', 'auth-type', '#auth-basic; haproxytech #authentication', {
    schema: oneOf({ basic: 'basic', 'basic-auth': 'basic' } as const, '"basic" (or haproxytech\'s "basic-auth")'),
  }),
  hi('cors-enable', 'enable-cors', '#cors', { schema: BOOLEAN }),
  hi('cors-allow-origin', 'cors-allow-origin', '#cors', { schema: corsOrigins }),
  hi('cors-allow-methods', 'cors-allow-methods', '#cors', { schema: methodList }),
  hi('cors-allow-headers', 'cors-allow-headers', '#cors', { schema: headerNames }),
  hi('cors-allow-credentials', 'cors-allow-credentials', '#cors', { schema: BOOLEAN }),
  hi('cors-max-age', 'cors-max-age', '#cors', { schema: seconds }),
  hi('cors-expose-headers', 'cors-expose-headers', '#cors', { schema: headerNamesOrStar }),
  hi('affinity', 'affinity', '#affinity'),
  hi('session-cookie-name', 'session-cookie-name', '#affinity', { schema: cookieName }),
  hi('backend-protocol', 'backend-protocol', '#backend-protocol', {
    schema: (sibling) => fromSiblings(() => haproxyIngressProtocol(sibling('backend-protocol'), sibling('secure-backends'))),
  }),
  hi('secure-backends', 'backend-protocol', '#secure-backend', {
    schema: (sibling) => fromSiblings(() => haproxyIngressProtocol(sibling('backend-protocol'), sibling('secure-backends')), BOOLEAN),
  }),
  hi('secure-verify-ca-secret', 'proxy-ssl-secret', '#secure-backend', { schema: caSecret('ca.crt'), implies: () => ({ 'proxy-ssl-verify': true }) }),
  hi('secure-verify-hostname', 'proxy-ssl-name', '#secure-backend'),
  hi('balance-algorithm', 'load-balance', '#balance-algorithm'),
  hi('service-upstream', 'service-upstream', '#service-upstream', { schema: BOOLEAN }),
  // "`%[namespace]`, `%[service]` can be used in the value" (#headers): HAProxy would run them, hapedge does not expand them.
  hi('headers', 'request-set-header', '#headers', {
    schema: z
      .string()
      .refine((value) => !value.includes('%['), "haproxy-ingress's %[namespace] and %[service] are not expanded by hapedge")
      .pipe(headerLines),
  }),
  hi('server-alias', 'server-alias', '#server-alias', { schema: hostList }),
  // #limit: requests a second and connections per client address, without a burst.
  hi('limit-rps', 'limit-rps', '#limit', { implies: () => ({ 'limit-burst-multiplier': 0 }) }),
  hi('limit-connections', 'limit-connections', '#limit'),
  hi('limit-whitelist', 'limit-allowlist', '#limit'),
]

// haproxytech/kubernetes-ingress documentation/annotations.md (section anchors below). Only keys
// "Available on: ingress" (or service) are read from Ingresses; configmap-only keys are not.
const ht = speller('haproxytech')

/** haproxytech's `server-ssl` and `server-proto: h2` together (#server-ssl, #server-proto). */
const haproxytechProtocol = (sibling: Sibling, base?: z.ZodType<unknown, string>) =>
  fromSiblings(() => {
    const tls = sibling('server-ssl')?.trim().toLowerCase() === 'true'
    const proto = sibling('server-proto')
    if (proto !== undefined && proto.trim() !== 'h2') return invalid(`${quote(proto)} must be "h2"`)
    return proto === undefined ? (tls ? 'HTTPS' : 'HTTP') : tls ? 'GRPCS' : 'H2C'
  }, base)

const haproxytech: Spelling[] = [
  ht('ssl-redirect', 'ssl-redirect', '#https', { schema: BOOLEAN }),
  ht('ssl-redirect-code', 'ssl-redirect-code', '#https', { schema: statusCode([301, 302, 303]) }),
  // "Comma-separated list of IP addresses and/or CIDR ranges" or a pattern file (`patterns/…`), which hapedge cannot read (#access-control).
  ht('allow-list', 'allowlist-source-range', '#access-control', { schema: cidrList }),
  ht('whitelist', 'allowlist-source-range', '#access-control', { schema: cidrList }),
  ht('deny-list', 'denylist-source-range', '#access-control', { schema: cidrList }),
  ht('blacklist', 'denylist-source-range', '#access-control', { schema: cidrList }),
  ht('auth-type', 'auth-type', '#authentication', { schema: oneOf({ 'basic-auth': 'basic' } as const, '"basic-auth"') }),
  // "the Secret data should contain user credentials in the form of `username: encrypted … password`" (#authentication).
  ht('auth-secret', 'auth-secret', '#authentication', { schema: objectRef, implies: () => ({ 'auth-secret-type': 'auth-map' as AuthSecretType }) }),
  ht('auth-realm', 'auth-realm', '#authentication'),
  // cors-allow-credentials defaults to "false" here (true in ingress-nginx and haproxy-ingress) (#cors).
  ht('cors-enable', 'enable-cors', '#cors', { schema: BOOLEAN, implies: () => ({ 'cors-allow-credentials': false }) }),
  ht('cors-allow-origin', 'cors-allow-origin', '#cors', { schema: corsOriginOrPattern }),
  ht('cors-allow-methods', 'cors-allow-methods', '#cors', { schema: methodList }),
  ht('cors-allow-credentials', 'cors-allow-credentials', '#cors', { schema: BOOLEAN }),
  ht('cors-allow-headers', 'cors-allow-headers', '#cors', { schema: headerNamesOrStar }),
  ht('cors-max-age', 'cors-max-age', '#cors', { schema: secondsFromHaproxyTime }),
  ht('load-balance', 'load-balance', '#balance-algorithm'),
  ht('request-set-header', 'request-set-header', '#request-set-header', { schema: headerLines }),
  ht('response-set-header', 'response-set-header', '#response-set-header', { schema: headerLines }),
  ht('set-host', 'upstream-vhost', '#set-host'),
  ht('check', 'health-check', '#check', { schema: BOOLEAN }),
  ht('check-http', 'health-check-path', '#check-http', { schema: haproxytechCheckHttp }),
  ht('check-interval', 'health-check-interval', '#check-interval', { schema: haproxyTime }),
  ht('server-ssl', 'backend-protocol', '#server-ssl', { schema: (sibling) => haproxytechProtocol(sibling, BOOLEAN) }),
  ht('server-proto', 'backend-protocol', '#server-proto', { schema: (sibling) => haproxytechProtocol(sibling) }),
  // "The secret must use 'tls.crt' key" (#authentication, server-ca).
  ht('server-ca', 'proxy-ssl-secret', '#authentication', { schema: caSecret('tls.crt'), implies: () => ({ 'proxy-ssl-verify': true }) }),
  ht('timeout-server', 'timeout-server', '#timeouts', { schema: haproxyTime }),
  // "Available on: configmap service": the cookie's name, with `insert indirect nocache dynamic` (#cookie-persistence).
  // haproxytech ignores it on an Ingress; read here for when Services' annotations are read too.
  ht('cookie-persistence', 'session-cookie-name', '#cookie-persistence', { schema: cookieName, implies: () => ({ affinity: 'cookie' }) }),
  // #rate-limit: its refusal status is 403 unless rate-limit-status-code says otherwise; a pattern file list is on the controller's disk.
  ht('rate-limit-requests', 'rate-limit-requests', '#rate-limit', { implies: () => ({ 'limit-status-code': 403 }) }),
  ht('rate-limit-period', 'rate-limit-period', '#rate-limit'),
  ht('rate-limit-size', 'rate-limit-size', '#rate-limit'),
  ht('rate-limit-status-code', 'limit-status-code', '#rate-limit'),
  ht('rate-limit-whitelist', 'limit-allowlist', '#rate-limit', { schema: cidrList }),
]

// nginx/documentation content/nic/configuration/ingress-resources/advanced-configuration-with-annotations.md.
const ni = speller('nginx-inc')

const nginxInc: Spelling[] = [
  ni('ssl-redirect', 'ssl-redirect', 'Auth and SSL/TLS', { schema: BOOLEAN }),
  // "redirect rule based on the value of the `http_x_forwarded_proto` header … TLS in a load balancer in front".
  ni('redirect-to-https', 'force-ssl-redirect', 'Auth and SSL/TLS', { schema: BOOLEAN }),
  ni('http-redirect-code', 'ssl-redirect-code', 'Auth and SSL/TLS', { schema: statusCode([301, 302, 307, 308]) }),
  // "The `preload` directive is included in the header."
  ni('hsts', 'hsts', 'Auth and SSL/TLS', { schema: BOOLEAN, implies: () => ({ 'hsts-preload': true }) }),
  ni('hsts-max-age', 'hsts-max-age', 'Auth and SSL/TLS', { schema: seconds }),
  ni('hsts-include-subdomains', 'hsts-include-subdomains', 'Auth and SSL/TLS', { schema: BOOLEAN }),
  ni('app-root', 'app-root', 'Auth and SSL/TLS', { schema: absolutePath }),
  ni('rewrite-target', 'rewrite-target', 'Request URI/Header Manipulation', { schema: rewriteTarget }),
  // path-regex: "case_sensitive", "case_insensitive", or "exact" (General customization): "exact" is NGINX's `location =`, no regex.
  ni('path-regex', 'use-regex', 'General customization', {
    schema: oneOf(
      { case_sensitive: 'case-sensitive', case_insensitive: 'case-insensitive', exact: 'exact' } as const,
      '"case_sensitive", "case_insensitive" or "exact"',
    ),
  }),
  ni('proxy-connect-timeout', 'timeout-connect', 'General customization', { schema: nginxTime }),
  ni('proxy-read-timeout', 'timeout-server', 'General customization', { schema: nginxTime }),
  ni('proxy-send-timeout', 'timeout-server', 'General customization', { schema: nginxTime }),
  ni('client-max-body-size', 'proxy-body-size', 'General customization', { schema: nginxSize }),
  // "a Secret resource with a htpasswd user list … stored in the `htpasswd` data field … type nginx.org/htpasswd" (examples/ingress-resources/basic-auth).
  ni('basic-auth-secret', 'auth-secret', 'Auth and SSL/TLS', {
    schema: objectRef,
    implies: () => ({ 'auth-type': 'basic', 'auth-secret-type': 'nginx-htpasswd' as AuthSecretType }),
  }),
  ni('basic-auth-realm', 'auth-realm', 'Auth and SSL/TLS'),
  ni('lb-method', 'load-balance', 'Backend services (Upstreams)', {
    schema: oneOf({ round_robin: 'roundrobin', least_conn: 'leastconn', random: 'random' } as const, '"round_robin", "least_conn" or "random"'),
  }),
  ni('use-cluster-ip', 'service-upstream', 'Backend services (Upstreams)', { schema: BOOLEAN }),
  ni('proxy-next-upstream', 'proxy-next-upstream', 'Backend services (Upstreams)'),
  ni('proxy-next-upstream-tries', 'proxy-next-upstream-tries', 'Backend services (Upstreams)'),
  ni('grpc-services', 'grpc-services', 'Backend services (Upstreams)'),
  ni('ssl-services', 'ssl-services', 'Backend services (Upstreams)'),
  ni('websocket-services', 'websocket-services', 'Backend services (Upstreams)'),
  // nginx.com/ (NGINX Plus), also read under nginx.org/: one vocabulary answers to both prefixes.
  ni('sticky-cookie-services', 'sticky-cookie-services', 'Backend services (Upstreams)'),
  ni('proxy-set-headers', 'request-set-header', 'Request URI/Header Manipulation', { schema: headerPairs }),
  ni('proxy-hide-headers', 'response-del-header', 'Request URI/Header Manipulation', { schema: headerNames }),
  // "Nr/s" or "Nr/m" per client address (limit-req-key's default), no burst unless limit-req-burst, which is not read (limit-notices.ts).
  ni('limit-req-rate', 'rate-limit-requests', 'Rate limiting', {
    schema: nginxRate.transform((rate) => rate.requests),
    implies: (_, sibling) => ({ 'rate-limit-period': nginxRate.parse(sibling('limit-req-rate')).periodMs }),
  }),
  ni('limit-req-reject-code', 'limit-status-code', 'Rate limiting'),
  ni('mergeable-ingress-type', 'mergeable-ingress-type', 'Mergeable Ingress types'),
]

/** Every spelling, hapedge's first: within one vocabulary the earlier spelling wins a disagreement. */
export const SPELLINGS: readonly Spelling[] = [...hapedge, ...ingressNginx, ...haproxyIngress, ...haproxytech, ...nginxInc]

const byVocabulary = new Map<Vocabulary, Map<string, Spelling>>()
for (const entry of SPELLINGS) {
  const table = byVocabulary.get(entry.vocabulary) ?? new Map<string, Spelling>()
  if (table.has(entry.suffix)) throw new Error(`two ${entry.vocabulary} spellings of ${entry.suffix}`)
  byVocabulary.set(entry.vocabulary, table.set(entry.suffix, entry))
}

/** The spelling a vocabulary gives a key (without its prefix), if it honours one. */
export function spellingOf(vocabulary: Vocabulary, suffix: string): Spelling | undefined {
  return byVocabulary.get(vocabulary)?.get(suffix)
}

/**
 * Position of a spelling in SPELLINGS, the tie-break between two spellings under one prefix; a
 * translated snippet's directives (read-annotations.ts) come after every annotation of their prefix.
 */
export const spellingRank = (entry: Spelling) => {
  const rank = SPELLINGS.indexOf(entry)
  return rank < 0 ? SPELLINGS.length : rank
}
