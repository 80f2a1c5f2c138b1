import fc from 'fast-check'
import { BACKEND_SNIPPET } from '../../core/kube/service.ts'
import type { ClusterOptions, GatewayPort } from '../../core/model/settings.ts'
import { fixtureCertificate } from './fixtures.ts'
import {
  gateway,
  gatewayClass,
  grpcRoute,
  httpRoute,
  namespace,
  referenceGrant,
  GATEWAY_TO_SECRET,
  type BackendSpec,
  type ListenerSpec,
} from './gateway-objects.ts'
import { authSecret, configMap, endpointSlice, ingress, ingressClass, service, tlsSecret, type PathType } from './objects.ts'

/**
 * fast-check arbitraries for Kubernetes objects drawn from small pools of names, hosts and paths,
 * so that random objects collide the way real ones do: shared hosts, conflicting paths, the same
 * object updated and deleted, Services scaling to zero and back.
 */

const namespaces = ['default', 'shop'] as const
const services = ['web', 'api'] as const
/** The Services canaries send their share to: most often one no other route names, so its backend is the canary's alone. */
const canaryServices = ['beta', 'beta', 'web'] as const
const hosts = ['a.example.com', 'b.example.com', '*.example.com', 'x.a.example.com', 'www.a.example.com', undefined, 'Bad Host'] as const
/**
 * Paths, and regular expressions read only by use-regex Ingresses (invalid elsewhere): a Prefix form, others served as
 * regex routes (two that overlap, the longer first), one hapedge refuses path by path.
 */
const paths = ['/', '/api', '/api/', '/api/v1', '/static', '/a/b', '/api(/|$)(.*)', '/x[0-9]', '/x[0-9]+/(.*)', '/(a+)+'] as const
const times = ['2024-01-01T00:00:00Z', '2024-01-01T00:00:00Z', '2024-03-01T00:00:00Z', '2023-06-01T12:00:00Z'] as const
const addresses = ['10.0.0.1', '10.0.0.2', '10.0.0.3', '10.0.1.1'] as const
const secretNames = ['tls-a', 'tls-b', 'missing'] as const

const shop = fixtureCertificate('shop.example.com')
const apps = fixtureCertificate('apps.example.com')

const port = fc.constantFrom<number | string>(80, 'http', 8443)

/**
 * Ingress annotations: none (most often), ssl-redirect in several spellings (agreeing and not),
 * keys hapedge does not honour (warnings), snippets, access control it does not render (refused),
 * and source ranges (honoured: lists that change, with exceptions, IPv6, and an unreadable one, refused).
 */
export const annotationSets: readonly (Record<string, string> | undefined)[] = [
  undefined,
  undefined,
  { 'hapedge.io/ssl-redirect': 'true' },
  { 'hapedge.io/ssl-redirect': 'false' },
  { 'ingress.kubernetes.io/ssl-redirect': 'false' },
  { 'nginx.ingress.kubernetes.io/ssl-redirect': 'FALSE', 'hapedge.io/ssl-redirect': 'true' },
  { 'hapedge.io/unknown': 'x', 'nginx.ingress.kubernetes.io/rewrite-target': '/' },
  { 'nginx.ingress.kubernetes.io/configuration-snippet': 'more_set_headers "X-Snippet: yes";' },
  // NGINX snippets through the vocabulary: a variable (its own rule, and the frontend's unique-id-format), and one refused whole.
  { 'nginx.ingress.kubernetes.io/configuration-snippet': 'more_set_headers "Request-Id: $req_id";\nproxy_set_header X-Snippet-Host $host;' },
  { 'nginx.org/server-snippets': 'proxy_ssl_verify off;\nexpires 1h;' },
  { 'nginx.ingress.kubernetes.io/server-snippet': 'deny all;' },
  { 'nginx.ingress.kubernetes.io/auth-type': 'basic', 'nginx.ingress.kubernetes.io/auth-secret': 'users' },
  // Basic authentication (honoured): Secrets that appear, change, go, clash with a TLS Secret's name, in several layouts.
  { 'nginx.ingress.kubernetes.io/auth-type': 'basic', 'nginx.ingress.kubernetes.io/auth-secret': 'users', 'nginx.ingress.kubernetes.io/auth-realm': 'Staff' },
  {
    'nginx.ingress.kubernetes.io/auth-type': 'basic',
    'nginx.ingress.kubernetes.io/auth-secret': 'shop/users',
    'nginx.ingress.kubernetes.io/auth-secret-type': 'auth-map',
  },
  { 'haproxy.org/auth-type': 'basic-auth', 'haproxy.org/auth-secret': 'users', 'haproxy.org/auth-realm': 'Bad "realm"' },
  { 'nginx.org/basic-auth-secret': 'users', 'hapedge.io/allowlist-source-range': '10.0.0.0/8' },
  { 'hapedge.io/auth-type': 'basic', 'hapedge.io/auth-secret': 'tls-a' },
  { 'nginx.ingress.kubernetes.io/auth-type': 'basic', 'nginx.ingress.kubernetes.io/auth-url': 'https://auth.example.com/' },
  // External authentication (honoured): URLs and companions that change, $host (refused on a rule without a host), an unreadable list, a companion alone.
  { 'nginx.ingress.kubernetes.io/auth-url': 'http://auth.example.com/verify' },
  {
    'nginx.ingress.kubernetes.io/auth-url': 'http://auth.example.com/other',
    'nginx.ingress.kubernetes.io/auth-response-headers': 'X-User',
    'nginx.ingress.kubernetes.io/auth-signin': 'https://login.example.com/',
  },
  { 'hapedge.io/auth-url': 'https://$host/oauth2/auth', 'hapedge.io/auth-method': 'HEAD' },
  { 'haproxy-ingress.github.io/auth-url': 'http://10.0.0.9/auth', 'haproxy-ingress.github.io/auth-headers-succeed': 'X-*' },
  { 'nginx.ingress.kubernetes.io/auth-signin': 'https://login.example.com/' },
  // mirror-target (honoured): URLs that change, with companions, refused, and a companion alone.
  { 'nginx.ingress.kubernetes.io/mirror-target': 'http://shadow.example.com$request_uri' },
  {
    'nginx.ingress.kubernetes.io/mirror-target': 'https://shadow.example.com/copy',
    'nginx.ingress.kubernetes.io/mirror-host': 'shadow.test',
    'nginx.ingress.kubernetes.io/mirror-request-body': 'off',
  },
  { 'nginx.ingress.kubernetes.io/mirror-target': 'http://$request_uri' },
  { 'nginx.ingress.kubernetes.io/mirror-request-body': 'on' },
  { 'nginx.ingress.kubernetes.io/whitelist-source-range': '10.0.0.0/8', 'haproxy.org/ssl-redirect': 'false' },
  { 'nginx.ingress.kubernetes.io/whitelist-source-range': '10.0.0.0/8,192.168.0.0/16' },
  { 'haproxy-ingress.github.io/allowlist-source-range': '10.0.0.0/8,!10.1.0.0/16', 'haproxy.org/deny-list': '10.2.0.0/16' },
  { 'hapedge.io/denylist-source-range': '::1,fd00::/8' },
  { 'haproxy.org/allow-list': 'patterns/ips' },
]

/**
 * Redirects and HSTS, drawn beside the sets above (half the Ingresses carry none): targets and codes
 * that change, per route and per host, in several spellings.
 */
const redirectAnnotationSets: readonly (Record<string, string> | undefined)[] = [
  undefined,
  undefined,
  undefined,
  undefined,
  undefined,
  undefined,
  { 'nginx.ingress.kubernetes.io/permanent-redirect': 'https://example.com/moved', 'nginx.ingress.kubernetes.io/permanent-redirect-code': '308' },
  { 'hapedge.io/temporal-redirect': 'http://example.org/t?x=1', 'hapedge.io/permanent-redirect': 'https://example.com/moved' },
  { 'hapedge.io/hsts': 'true', 'hapedge.io/hsts-max-age': '600', 'hapedge.io/hsts-include-subdomains': 'true', 'hapedge.io/app-root': '/app' },
  { 'nginx.org/hsts': 'true', 'nginx.org/redirect-to-https': 'true', 'nginx.org/http-redirect-code': '301' },
  { 'nginx.ingress.kubernetes.io/from-to-www-redirect': 'true', 'nginx.ingress.kubernetes.io/app-root': '/home' },
  { 'hapedge.io/force-ssl-redirect': 'true', 'haproxy.org/ssl-redirect-code': '302', 'hapedge.io/from-to-www-redirect': 'true' },
  // Rewrites: targets with and without captures (ingress-nginx's implies regular expression paths), X-Forwarded-Prefix.
  { 'nginx.ingress.kubernetes.io/rewrite-target': '/$2', 'nginx.ingress.kubernetes.io/x-forwarded-prefix': '/api' },
  { 'haproxy-ingress.github.io/rewrite-target': '/v2' },
  { 'hapedge.io/use-regex': 'true', 'hapedge.io/rewrite-target': '/' },
  { 'nginx.org/path-regex': 'case_sensitive', 'nginx.org/rewrite-target': '/v/$1' },
]

/** Per-route timeouts, body size limits and CORS, drawn beside the sets above: values that change, in several spellings, with and without a tunnel timeout, `0` and unlimited, origin lists and `*`. */
const timeoutAnnotationSets: readonly (Record<string, string> | undefined)[] = [
  undefined,
  undefined,
  undefined,
  { 'nginx.ingress.kubernetes.io/proxy-read-timeout': '5' },
  { 'nginx.ingress.kubernetes.io/proxy-read-timeout': '30', 'nginx.ingress.kubernetes.io/proxy-send-timeout': '30' },
  { 'haproxy-ingress.github.io/timeout-server': '10s', 'haproxy-ingress.github.io/timeout-tunnel': '1h' },
  { 'hapedge.io/timeout-tunnel': '30m' },
  { 'nginx.ingress.kubernetes.io/proxy-body-size': '8m' },
  { 'nginx.ingress.kubernetes.io/proxy-body-size': '0', 'nginx.ingress.kubernetes.io/proxy-read-timeout': '5' },
  { 'haproxy-ingress.github.io/proxy-body-size': 'unlimited', 'hapedge.io/timeout-tunnel': '30m' },
  { 'nginx.org/client-max-body-size': '1k' },
  { 'nginx.ingress.kubernetes.io/enable-cors': 'true' },
  {
    'nginx.ingress.kubernetes.io/enable-cors': 'true',
    'nginx.ingress.kubernetes.io/cors-allow-origin': 'https://a.example.com, https://*.example.org',
    'nginx.ingress.kubernetes.io/cors-allow-credentials': 'false',
  },
  {
    'haproxy-ingress.github.io/cors-enable': 'true',
    'haproxy-ingress.github.io/cors-allow-origin': 'https://b.example.com',
    'haproxy-ingress.github.io/cors-max-age': '60',
  },
  { 'haproxy.org/cors-enable': 'true', 'haproxy.org/cors-allow-origin': '^https://x$' },
]

/** Request and response headers, drawn beside the sets above: values that change (one with spaces and `%`), names that come and go, several spellings. */
const headerAnnotationSets: readonly (Record<string, string> | undefined)[] = [
  undefined,
  undefined,
  undefined,
  { 'hapedge.io/request-set-header': 'X-Team shop' },
  { 'hapedge.io/request-set-header': 'X-Team blog 100%', 'hapedge.io/response-del-header': 'Server' },
  { 'haproxy.org/response-set-header': 'Cache-Control no-store', 'hapedge.io/request-add-header': 'X-A 1\nX-A 2' },
  { 'nginx.org/proxy-set-headers': 'X-Team: shop', 'nginx.org/proxy-hide-headers': 'X-Powered-By' },
  // custom-headers: a ConfigMap of the Ingress's namespace (drawn below: it comes, changes, goes), one beside an annotation setting
  // one of its names, another namespace's (refused), and the settings ConfigMap's name.
  { 'nginx.ingress.kubernetes.io/custom-headers': 'headers' },
  { 'hapedge.io/custom-headers': 'headers', 'hapedge.io/request-set-header': 'X-Team shop' },
  { 'hapedge.io/custom-headers': 'shop/headers', 'hapedge.io/response-set-header': 'X-Frame-Options SAMEORIGIN' },
  { 'nginx.ingress.kubernetes.io/custom-headers': 'hapedge/hapedge' },
]

/** Server aliases, drawn beside the sets above: new names, a name another Ingress's rules may serve, one two Ingresses may claim, a wildcard. */
const aliasAnnotationSets: readonly (Record<string, string> | undefined)[] = [
  undefined,
  undefined,
  undefined,
  { 'hapedge.io/server-alias': 'alias.example.com' },
  { 'nginx.ingress.kubernetes.io/server-alias': 'b.example.com,alias.example.com' },
  { 'haproxy-ingress.github.io/server-alias': '*.alias.example.com' },
  { 'nginx.ingress.kubernetes.io/upstream-vhost': 'internal.example.com' },
  { 'haproxy.org/set-host': 'other.internal', 'hapedge.io/server-alias': 'alias.example.com' },
]

/** Rate and connection limits, drawn beside the sets above: values and statuses that change, an allowlist that comes, changes and goes, an unreadable value. */
const limitAnnotationSets: readonly (Record<string, string> | undefined)[] = [
  undefined,
  undefined,
  undefined,
  { 'nginx.ingress.kubernetes.io/limit-rps': '5' },
  { 'nginx.ingress.kubernetes.io/limit-rps': '50', 'nginx.ingress.kubernetes.io/limit-burst-multiplier': '2' },
  { 'nginx.ingress.kubernetes.io/limit-rpm': '300', 'nginx.ingress.kubernetes.io/limit-allowlist': '10.0.0.0/8' },
  { 'nginx.ingress.kubernetes.io/limit-connections': '3', 'nginx.ingress.kubernetes.io/limit-whitelist': '10.0.0.0/8,fd00::/8' },
  { 'haproxy-ingress.github.io/limit-rps': '20', 'hapedge.io/limit-status-code': '503' },
  { 'haproxy.org/rate-limit-requests': '10', 'haproxy.org/rate-limit-period': '30s', 'haproxy.org/rate-limit-whitelist': '192.168.0.0/16' },
  { 'nginx.org/limit-req-rate': '10r/s', 'nginx.org/limit-req-reject-code': '429' },
  { 'hapedge.io/limit-rps': 'lots' },
]

const arbitraryAnnotations = fc
  .tuple(
    fc.constantFrom(...annotationSets),
    fc.constantFrom(...redirectAnnotationSets),
    fc.constantFrom(...timeoutAnnotationSets),
    fc.constantFrom(...headerAnnotationSets),
    fc.constantFrom(...aliasAnnotationSets),
    fc.constantFrom(...limitAnnotationSets),
  )
  .map(([annotations, redirects, timeouts, headers, aliases, limits]) =>
    annotations || redirects || timeouts || headers || aliases || limits
      ? { ...annotations, ...redirects, ...timeouts, ...headers, ...aliases, ...limits }
      : undefined,
  )

/**
 * Backend settings, drawn beside the sets above: each set gives its routes a backend of their own
 * (protocols, balancing, affinity, a ClusterIP, health checks), two verify with a CA Secret that comes, changes
 * and goes, one names a Secret of users as its CA (refused).
 */
const upstreamAnnotationSets: readonly (Record<string, string> | undefined)[] = [
  undefined,
  undefined,
  undefined,
  { 'nginx.ingress.kubernetes.io/backend-protocol': 'HTTPS' },
  { 'nginx.ingress.kubernetes.io/backend-protocol': 'GRPC', 'nginx.org/lb-method': 'least_conn' },
  { 'nginx.ingress.kubernetes.io/upstream-hash-by': '$http_x_user', 'nginx.ingress.kubernetes.io/load-balance': 'round_robin' },
  { 'nginx.ingress.kubernetes.io/affinity': 'cookie', 'nginx.ingress.kubernetes.io/session-cookie-max-age': '60', 'hapedge.io/session-cookie-path': '/app' },
  { 'nginx.ingress.kubernetes.io/service-upstream': 'true' },
  {
    'nginx.ingress.kubernetes.io/backend-protocol': 'HTTPS',
    'nginx.ingress.kubernetes.io/proxy-ssl-verify': 'on',
    'nginx.ingress.kubernetes.io/proxy-ssl-secret': 'ca',
    'nginx.ingress.kubernetes.io/proxy-ssl-name': 'backend.internal',
    'nginx.ingress.kubernetes.io/proxy-ssl-server-name': 'on',
  },
  { 'haproxy.org/server-ssl': 'true', 'haproxy.org/server-ca': 'users' },
  { 'nginx.ingress.kubernetes.io/proxy-next-upstream': 'error timeout http_503', 'nginx.ingress.kubernetes.io/proxy-next-upstream-tries': '2' },
  { 'nginx.org/grpc-services': 'api', 'nginx.com/sticky-cookie-services': 'serviceName=web srv_id expires=1h' },
  // Health checks, NGINX Inc.'s per-Service TLS and WebSocket, and backend verification asked for by an NGINX snippet (nginx-snippet.ts).
  { 'haproxy.org/check': 'true', 'haproxy.org/check-http': '/healthz', 'haproxy.org/check-interval': '5s' },
  { 'nginx.org/ssl-services': 'api', 'nginx.org/websocket-services': 'web' },
  {
    'nginx.ingress.kubernetes.io/backend-protocol': 'HTTPS',
    'nginx.ingress.kubernetes.io/proxy-ssl-secret': 'ca',
    'nginx.ingress.kubernetes.io/server-snippet': 'proxy_ssl_verify on;',
  },
]

/**
 * Canaries, drawn beside the sets above: an Ingress that is one takes a share of the route it shares a path with (or is
 * reported); weights, totals and header values that change, header and cookie names that come and go, a refused pattern.
 */
const canaryAnnotationSets: readonly (Record<string, string> | undefined)[] = [
  ...Array.from({ length: 6 }, () => undefined),
  { 'nginx.ingress.kubernetes.io/canary': 'true', 'nginx.ingress.kubernetes.io/canary-weight': '20' },
  { 'nginx.ingress.kubernetes.io/canary': 'true', 'nginx.ingress.kubernetes.io/canary-weight': '5', 'nginx.ingress.kubernetes.io/canary-weight-total': '1000' },
  { 'hapedge.io/canary': 'true', 'hapedge.io/canary-by-header': 'X-Canary', 'hapedge.io/canary-by-cookie': 'canary' },
  {
    'nginx.ingress.kubernetes.io/canary': 'true',
    'nginx.ingress.kubernetes.io/canary-by-header': 'X-Beta',
    'nginx.ingress.kubernetes.io/canary-by-header-value': 'yes',
  },
  {
    'nginx.ingress.kubernetes.io/canary': 'true',
    'nginx.ingress.kubernetes.io/canary-by-header': 'X-Beta',
    'nginx.ingress.kubernetes.io/canary-by-header-pattern': '^(a|b)$',
  },
  {
    'nginx.ingress.kubernetes.io/canary': 'true',
    'nginx.ingress.kubernetes.io/canary-by-header': 'X-Beta',
    'nginx.ingress.kubernetes.io/canary-by-header-pattern': 'a.*',
  },
  {
    'nginx.ingress.kubernetes.io/canary': 'true',
    'nginx.ingress.kubernetes.io/canary-by-header': 'X-Beta',
    'nginx.ingress.kubernetes.io/canary-by-header-pattern': 'b|c',
  },
  { 'nginx.ingress.kubernetes.io/canary-weight': '50' },
]

/** NGINX Inc.'s mergeable Ingresses: masters (with host-wide and inherited settings, most often without paths) and minions. */
const mergeableTypes: readonly ({ annotations: Record<string, string>; pathless?: true } | undefined)[] = [
  ...Array.from({ length: 8 }, () => undefined),
  { annotations: { 'nginx.org/mergeable-ingress-type': 'master', 'nginx.org/proxy-read-timeout': '20s', 'nginx.org/hsts': 'true' }, pathless: true },
  { annotations: { 'nginx.org/mergeable-ingress-type': 'master', 'nginx.org/proxy-hide-headers': 'Server' }, pathless: true },
  { annotations: { 'nginx.org/mergeable-ingress-type': 'master' } },
  { annotations: { 'nginx.org/mergeable-ingress-type': 'minion' } },
  { annotations: { 'nginx.org/mergeable-ingress-type': 'minion', 'nginx.org/proxy-read-timeout': '5s', 'nginx.org/ssl-redirect': 'false' } },
]

/**
 * Client certificates, drawn beside the sets above: a CA Secret that comes, changes and goes (shared with proxy-ssl-secret's),
 * another with a revocation list (refused), each verify mode, an error page, the certificate passed, an unreadable mode (refused).
 */
const clientCertAnnotationSets: readonly (Record<string, string> | undefined)[] = [
  undefined,
  undefined,
  undefined,
  { 'nginx.ingress.kubernetes.io/auth-tls-secret': 'ca' },
  {
    'nginx.ingress.kubernetes.io/auth-tls-secret': 'shop/ca',
    'nginx.ingress.kubernetes.io/auth-tls-verify-client': 'optional',
    'nginx.ingress.kubernetes.io/auth-tls-pass-certificate-to-upstream': 'true',
  },
  {
    'hapedge.io/auth-tls-secret': 'client-ca',
    'hapedge.io/auth-tls-verify-client': 'optional_no_ca',
    'hapedge.io/auth-tls-error-page': 'https://e.example/x;y',
  },
  { 'nginx.ingress.kubernetes.io/auth-tls-secret': 'ca', 'nginx.ingress.kubernetes.io/auth-tls-match-cn': 'CN=(alice|bob)' },
  { 'hapedge.io/auth-tls-secret': 'client-ca', 'hapedge.io/auth-tls-match-cn': '^CN=alice$' },
  { 'nginx.ingress.kubernetes.io/auth-tls-match-cn': 'CN=(a+)+' },
  { 'haproxy-ingress.github.io/auth-tls-secret': 'ca', 'haproxy-ingress.github.io/auth-tls-verify-client': 'off' },
  { 'nginx.ingress.kubernetes.io/auth-tls-verify-client': 'on' },
  { 'hapedge.io/auth-tls-secret': 'ca', 'hapedge.io/auth-tls-verify-client': 'sometimes' },
]

const arbitraryIngress = fc
  .record({
    name: fc.constantFrom('i1', 'i2', 'i3', 'i4', 'i5'),
    namespace: fc.constantFrom(...namespaces),
    createdAt: fc.constantFrom(...times),
    className: fc.constantFrom<string | null>('hapedge', 'hapedge', 'hapedge', 'nginx', null),
    annotations: fc
      .tuple(arbitraryAnnotations, fc.constantFrom(...upstreamAnnotationSets), fc.constantFrom(...clientCertAnnotationSets))
      .map(([annotations, upstream, clientCert]) => (annotations || upstream || clientCert ? { ...annotations, ...upstream, ...clientCert } : undefined)),
    canary: fc.constantFrom(...canaryAnnotationSets),
    // Rules from the few hosts and paths canaries take shares of: a canary's always, another Ingress's often, so that a
    // canary often finds the route it is drawn for (a canary is most often drawn alone, as other annotations would often refuse it).
    sharedRules: fc
      .tuple(
        fc.constantFrom<(string | undefined)[]>(['a.example.com'], ['a.example.com'], ['a.example.com', undefined]),
        fc.constantFrom(['/', '/api'], ['/'], ['/', '/api/v1']),
        fc.constantFrom<PathType>('Prefix', 'Prefix', 'Prefix', 'ImplementationSpecific', 'Exact'),
        fc.constantFrom(...services),
      )
      .map(([hosts, paths, pathType, service]) => hosts.map((host) => ({ host, paths: paths.map((path) => ({ path, pathType, service })) }))),
    shared: fc.constantFrom(true, false, false, false),
    canaryService: fc.constantFrom(...canaryServices),
    canaryAlone: fc.boolean(),
    mergeable: fc.constantFrom(...mergeableTypes),
    rules: fc.array(
      fc.record({
        host: fc.constantFrom(...hosts),
        paths: fc.array(
          fc.record({
            path: fc.constantFrom(...paths),
            pathType: fc.constantFrom<PathType>('Exact', 'Prefix', 'ImplementationSpecific'),
            service: fc.constantFrom(...services),
            port,
          }),
          { minLength: 1, maxLength: 3 },
        ),
      }),
      { maxLength: 3 },
    ),
    tls: fc.array(fc.record({ hosts: fc.subarray(['a.example.com', 'b.example.com', '*.example.com']), secretName: fc.constantFrom(...secretNames) }), {
      maxLength: 2,
    }),
    defaultBackend: fc.option(fc.record({ service: fc.constantFrom(...services), port }), { nil: undefined }),
  })
  .map(({ canary, sharedRules, shared, canaryService, canaryAlone, mergeable, ...spec }) => {
    const isCanary = Object.entries(canary ?? {}).some(([key, value]) => key.endsWith('/canary') && value === 'true')
    const canaryRules = sharedRules.map((rule) => ({ ...rule, paths: rule.paths.map((path) => ({ ...path, service: canaryService })) }))
    const rules = isCanary ? canaryRules : shared ? sharedRules : spec.rules
    const annotations = isCanary && canaryAlone ? canary : canary ? { ...spec.annotations, ...canary } : spec.annotations
    const made = ingress({
      ...spec,
      annotations: { ...annotations, ...mergeable?.annotations },
      rules,
      ...(isCanary && canaryAlone ? { className: 'hapedge' } : {}),
    })
    // A master as NGINX Inc. writes it names its host without paths; one with paths is drawn too (they are not served).
    return mergeable?.pathless ? { ...made, spec: { ...made.spec, rules: made.spec.rules.map(({ http: _paths, ...rule }) => rule) } } : made
  })

/** Configuration snippets: none (most often), two that HAProxy takes, and one that would open a frontend. */
export const snippets = [
  undefined,
  undefined,
  'http-response set-header X-Snippet yes',
  'timeout server 7s\noption forwardfor',
  'timeout server 1s\nfrontend evil\n bind :9999',
] as const

const arbitraryService = fc
  .record({
    name: fc.constantFrom(...services, 'beta'),
    namespace: fc.constantFrom(...namespaces),
    named: fc.boolean(),
    extra: fc.boolean(),
    snippet: fc.constantFrom(...snippets),
    // service-upstream's one server: a ClusterIP that changes, a headless Service (its endpoints instead).
    clusterIP: fc.constantFrom<string | undefined>('10.96.0.1', '10.96.0.2', 'None', undefined),
  })
  .map(({ name, namespace, named, extra, snippet, clusterIP }) => {
    const object = service(
      name,
      [{ port: 80, ...(named ? { name: 'http' } : {}) }, ...(extra ? [{ port: 8443, name: 'https' }] : [])],
      namespace,
      snippet === undefined ? undefined : { [BACKEND_SNIPPET]: snippet, 'other.io/kept': 'no' },
    )
    return clusterIP === undefined ? object : { ...object, spec: { ...object.spec, clusterIP } }
  })

const arbitrarySlice = fc
  .record({
    service: fc.constantFrom(...services, 'beta'),
    namespace: fc.constantFrom(...namespaces),
    slice: fc.constantFrom('s1', 's2'),
    named: fc.boolean(),
    endpoints: fc.uniqueArray(
      fc.record({ address: fc.constantFrom(...addresses), ready: fc.constantFrom<boolean | null | undefined>(true, false, null, undefined) }),
      {
        selector: (endpoint) => endpoint.address,
        maxLength: 4,
      },
    ),
  })
  .map(({ service: svc, namespace, slice, named, endpoints }) =>
    endpointSlice(
      svc,
      endpoints,
      [
        { port: 8080, ...(named ? { name: 'http' } : {}) },
        { port: 9443, name: 'https' },
      ],
      { name: `${svc}-${slice}`, namespace },
    ),
  )

const arbitrarySecret = fc
  .record({ name: fc.constantFrom('tls-a', 'tls-b'), namespace: fc.constantFrom(...namespaces), which: fc.constantFrom('shop', 'apps', 'broken') })
  .map(({ name, namespace, which }) =>
    which === 'broken'
      ? tlsSecret(name, '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n', shop.keyPem, namespace)
      : tlsSecret(name, (which === 'shop' ? shop : apps).certPem, (which === 'shop' ? shop : apps).keyPem, namespace),
  )

/** Hashes HAProxy checks (bcrypt, sha512crypt) and one it cannot ($apr1$), for Secrets of users. */
const BCRYPT = '$2b$05$abcdefghijklmnopqrstuuOQiyCxlgf/oeuTqixKmWdcYUh4Hjl0a'
const SHA512 = '$6$salt$wZU8LXJfJJqoagopbB7RuK6JEotEMZ0CQDy0phpPAuLMYQFcmf6L6BdAbs/Q7w7o1qsZ9pFqFVY4yuUSWgaYt1'
const APR1 = '$apr1$salt$X4t4GieilutI/LKL4ggXg1'

const arbitraryAuthSecret = fc
  .record({
    name: fc.constantFrom('users', 'users', 'tls-a'),
    namespace: fc.constantFrom(...namespaces),
    content: fc.constantFrom<[Record<string, string>, string?]>(
      [{ auth: `alice:${BCRYPT}\n` }],
      [{ auth: `alice:${BCRYPT}\nbob:${SHA512}\ncarol:${APR1}\n` }],
      [{ auth: `carol:${APR1}\n` }],
      [{ alice: SHA512, bob: BCRYPT, other: 'not a hash' }],
      [{ htpasswd: `alice:${SHA512}\n` }, 'nginx.org/htpasswd'],
      [{ password: 'no users here' }],
      [{ auth: 'bad user:$2b$05$x\n' }],
    ),
  })
  .map(({ name, namespace, content: [data, type] }) => authSecret(name, data, type, namespace))

/** A CA Secret that verifies backends (proxy-ssl-secret): one certificate, another, none (refused), beside a key that is never kept. */
const arbitraryCaSecret = fc
  .record({ namespace: fc.constantFrom(...namespaces), ca: fc.constantFrom(shop.certPem, apps.certPem, 'not a certificate') })
  .map(({ namespace, ca }) => authSecret('ca', { 'ca.crt': ca, 'tls.key': shop.keyPem }, 'Opaque', namespace))

/** A CA Secret of clients' certificates (auth-tls-secret): one bundle, another, one with a revocation list hapedge does not check (refused). */
const arbitraryClientCaSecret = fc
  .record({ namespace: fc.constantFrom(...namespaces), crl: fc.boolean(), ca: fc.constantFrom(shop.certPem, apps.certPem) })
  .map(({ namespace, crl, ca }) => authSecret('client-ca', { 'ca.crt': ca, ...(crl ? { 'ca.crl': 'not checked' } : {}) }, 'Opaque', namespace))

/** A Secret of users whose data is not base64: stored as malformed, and the Ingress naming it refused. */
const malformedAuthSecret = fc
  .constantFrom(...namespaces)
  .map((namespace) => ({ apiVersion: 'v1', kind: 'Secret', type: 'Opaque', metadata: { name: 'users', namespace }, data: { auth: '%%%' } }))

const arbitraryClass = fc
  .record({ name: fc.constantFrom('hapedge', 'nginx'), isDefault: fc.boolean() })
  .map(({ name, isDefault }) => ingressClass(name, isDefault))

/**
 * A ConfigMap custom-headers names: values that change (one with spaces, quotes and `%`), names
 * that come and go, a refused one, one with a line end, and one malformed (a value over 4096).
 */
const arbitraryHeadersConfigMap = fc
  .record({
    namespace: fc.constantFrom(...namespaces),
    data: fc.constantFrom<Record<string, string>>(
      {},
      { 'X-Frame-Options': 'DENY' },
      { 'X-Frame-Options': 'SAMEORIGIN', 'Content-Security-Policy': "default-src 'self' 100%" },
      { Connection: 'close', 'X-Two-Lines': 'a\nb', 'Referrer-Policy': 'no-referrer' },
      { 'X-Big': 'x'.repeat(5000) },
    ),
  })
  .map(({ namespace, data }) => configMap(data, 'headers', namespace))

/** The ConfigMaps an option may name (the first is the default's). */
export const configMapNames = ['hapedge/hapedge', 'hapedge/other'] as const

const arbitraryConfigMap = fc
  .record({
    redirect: fc.constantFrom('true', 'false', 'maybe'),
    timeout: fc.constantFrom('30s', '5m', 'soon'),
    // Trusted proxies: none, a list that changes, and an unreadable one.
    proxies: fc.constantFrom<Record<string, string>>(
      {},
      { 'use-forwarded-headers': 'true', 'proxy-real-ip-cidr': '10.0.0.0/8' },
      { 'use-forwarded-headers': 'true', 'proxy-real-ip-cidr': '10.0.0.0/8,fd00::/8' },
      { 'use-forwarded-headers': 'true', 'proxy-real-ip-cidr': 'lb' },
    ),
    // The routes' default body limit: none, one, and an unreadable one.
    bodySize: fc.constantFrom<Record<string, string>>({}, { 'proxy-body-size': '1m' }, { 'proxy-body-size': 'lots' }, { 'limit-req-status-code': '503' }),
    // The default certificate: none, a TLS Secret that comes, changes (or breaks) and goes, another, one absent, one without its namespace.
    fallback: fc.constantFrom<Record<string, string>>(
      {},
      { 'default-ssl-certificate': 'default/tls-a' },
      { 'default-ssl-certificate': 'shop/tls-b' },
      { 'default-ssl-certificate': 'default/missing' },
      { 'default-ssl-certificate': 'tls-a' },
    ),
    name: fc.constantFrom(...configMapNames),
    // The GatewayClasses served: hapedge's controller, or another's; HTTP/2 off on HTTPS, where GRPCRoutes are then not served.
    gateway: fc.constantFrom<Record<string, string>>({}, {}, {}, {}, { 'gateway-controller': 'example.com/other' }, { 'use-http2': 'false' }),
    // HSTS for the hosts whose Ingress says nothing of it (ingress-nginx's keys): none, on, with every value, and an unreadable one.
    hsts: fc.constantFrom<Record<string, string>>(
      {},
      {},
      { hsts: 'true' },
      { hsts: 'true', 'hsts-max-age': '300', 'hsts-include-subdomains': 'true', 'hsts-preload': 'true' },
      { hsts: 'often' },
    ),
  })
  .map(({ redirect, timeout, proxies, bodySize, fallback, name, gateway, hsts }) =>
    configMap(
      { 'ssl-redirect': redirect, 'timeout-server': timeout, ...proxies, ...bodySize, ...fallback, ...gateway, ...hsts },
      name.split('/')[1],
      name.split('/')[0],
    ),
  )

/** An Ingress whose paths are regular expressions (regex routes, a Prefix form, one refused), in each use-regex spelling, with rewrites from their groups. */
const arbitraryRegexIngress = fc
  .record({
    name: fc.constantFrom('i1', 'i2', 'r1'),
    createdAt: fc.constantFrom(...times),
    annotations: fc.constantFrom<Record<string, string>>(
      { 'nginx.ingress.kubernetes.io/use-regex': 'true' },
      { 'nginx.ingress.kubernetes.io/rewrite-target': '/$1' },
      { 'nginx.org/path-regex': 'case_sensitive', 'nginx.org/rewrite-target': '/v/$1' },
      { 'nginx.org/path-regex': 'case_insensitive', 'hapedge.io/x-forwarded-prefix': '/x' },
      { 'hapedge.io/use-regex': 'true', 'hapedge.io/timeout-server': '5s' },
    ),
    rules: fc.array(
      fc.record({
        host: fc.constantFrom('a.example.com', undefined),
        paths: fc.array(
          fc.record({
            path: fc.constantFrom('/x[0-9]+/(.*)', '/x[0-9]', '/([a-z]+)/v[0-9]+', '/api(/|$)(.*)', '/(a+)+', '/'),
            pathType: fc.constantFrom<PathType>('Prefix', 'ImplementationSpecific'),
            service: fc.constantFrom(...services),
          }),
          { minLength: 1, maxLength: 3 },
        ),
      }),
      { minLength: 1, maxLength: 2 },
    ),
  })
  .map((spec) => ingress({ ...spec, className: 'hapedge' }))

/** GatewayClasses of hapedge's controller (the default setting) and of another's. */
const arbitraryGatewayClass = fc
  .tuple(fc.constantFrom('hapedge', 'hapedge', 'hapedge', 'other'), fc.constantFrom(undefined, undefined, undefined, 'example.com/other'))
  .map(([name, controller]) => gatewayClass(name, controller))

/** Listener sets: hostnames wildcard and exact, a port not served, HTTPS ones with a certificate that may be missing or without hostname, namespaces admitted or not, a TCP one. */
/**
 * Certificates of another namespace, served when a ReferenceGrant there lets the Gateway's namespace
 * refer to them (arbitraryReferenceGrant); the last one, of a Gateway in shop, takes routes of default
 * (which its grant's change does not re-derive as routes of the namespace it lets refer).
 */
const crossNamespaceCertificates: ListenerSpec[][] = [
  [{ name: 'web' }, { name: 'tls', protocol: 'HTTPS', hostname: 'b.example.com', certificate: 'tls-b', certificateNamespace: 'shop' }],
  [{ name: 'tls', protocol: 'HTTPS', certificate: 'tls-a', certificateNamespace: 'shop', from: 'All' }],
  [{ name: 'tls', protocol: 'HTTPS', hostname: '*.example.com', certificate: 'tls-a', certificateNamespace: 'default', from: 'All' }],
]

const listenerSets: ListenerSpec[][] = [
  [{ name: 'web', hostname: '*.example.com' }],
  // A port neither bind serves: the listener is refused (PortUnavailable), its routes not attached there, unless the
  // options' gatewayPorts serve it on a socket of its own (arbitraryOptions), where its routes are served as `host:port`.
  [
    { name: 'web', hostname: '*.example.com' },
    { name: 'alt', port: 8080 },
  ],
  [
    { name: 'alt', port: 8080, hostname: 'a.example.com' },
    // A certificate other than the HTTPS bind's listeners' for the same names: each port serves its own (its crt-list).
    { name: 'alt-tls', protocol: 'HTTPS', port: 8443, hostname: '*.example.com', certificate: 'tls-b' },
  ],
  [{ name: 'web' }, { name: 'tls', protocol: 'HTTPS', hostname: 'b.example.com', certificate: 'tls-a' }],
  [
    { name: 'web', hostname: 'a.example.com', from: 'All' },
    { name: 'tls', protocol: 'HTTPS', hostname: 'a.example.com', certificate: 'missing' },
  ],
  [
    { name: 'web', from: 'Selector' },
    { name: 'raw', protocol: 'TCP', port: 9000 },
  ],
  [{ name: 'tls', protocol: 'HTTPS', certificate: 'tls-b', from: 'All', kinds: ['HTTPRoute'] }],
  // Another listener without hostname (a second certificate for every name: the oldest Gateway's is served) and a wildcard one.
  [
    { name: 'tls', protocol: 'HTTPS', certificate: 'tls-a' },
    { name: 'wild', protocol: 'HTTPS', hostname: '*.example.com', certificate: 'tls-a' },
  ],
  // Selectors over the Namespaces' labels (arbitraryNamespace): a label changed attaches or detaches the routes of its namespace.
  [{ name: 'web', hostname: '*.example.com', from: 'Selector', selector: { matchLabels: { team: 'web' } } }],
  [
    { name: 'web', from: 'Selector', selector: { matchExpressions: [{ key: 'env', operator: 'NotIn', values: ['test'] }] } },
    { name: 'tls', protocol: 'HTTPS', hostname: 'b.example.com', certificate: 'tls-a', from: 'Selector', selector: { matchLabels: { team: 'web' } } },
  ],
  ...crossNamespaceCertificates,
]

const gatewayOf = (sets: ListenerSpec[][], namespaces: string[] = ['default', 'default', 'default', 'shop']) =>
  fc
    .record({
      name: fc.constantFrom('edge', 'edge', 'edge', 'edge2'),
      namespace: fc.constantFrom(...namespaces),
      listeners: fc.constantFrom(...sets),
      className: fc.constantFrom('hapedge', 'hapedge', 'hapedge', 'other'),
    })
    .map(({ name, namespace, listeners, className }) => gateway(name, listeners, { namespace, className }))
const arbitraryGateway = gatewayOf(listenerSets)

/**
 * A rule's filters and timeouts: header values that change (a runtime edit) and names that do (a
 * reload), rewrites, redirects (one naming no Service), a timeout, mirrors (their share and Service a
 * runtime edit, one of another namespace that needs a grant, one to a Service no draw makes, which
 * is reported and dropped); and what is not honoured (a RequestRedirect without its fields, a mirror
 * beside a redirect), whose route is not served.
 */
const mirrorTo = (name: string, more: object = {}) => ({ type: 'RequestMirror', requestMirror: { backendRef: { name, port: 80 }, ...more } })
const ruleExtras: object[] = [
  { filters: [{ type: 'RequestRedirect' }] },
  { filters: [mirrorTo('web')] },
  ...[{ percent: 50 }, { fraction: { numerator: 1, denominator: 3 } }].map((share) => ({ filters: [mirrorTo('beta', share)] })),
  { filters: [{ ...mirrorTo('web'), requestMirror: { backendRef: { name: 'web', namespace: 'shop', port: 80 } } }, mirrorTo('ghost')] },
  { filters: [mirrorTo('api'), { type: 'RequestRedirect', requestRedirect: { scheme: 'https' } }] },
  ...['blue', 'green'].map((value) => ({ filters: [{ type: 'RequestHeaderModifier', requestHeaderModifier: { set: [{ name: 'X-Team', value }] } }] })),
  { filters: [{ type: 'ResponseHeaderModifier', responseHeaderModifier: { add: [{ name: 'X-Via', value: 'gw' }], remove: ['X-Powered-By'] } }] },
  ...['/v2', ''].map((value) => ({ filters: [{ type: 'URLRewrite', urlRewrite: { path: { type: 'ReplacePrefixMatch', replacePrefixMatch: value } } }] })),
  { filters: [{ type: 'URLRewrite', urlRewrite: { hostname: 'internal.example.com', path: { type: 'ReplaceFullPath', replaceFullPath: '/x' } } }] },
  ...['https', 'http'].map((scheme) => ({ filters: [{ type: 'RequestRedirect', requestRedirect: { scheme, statusCode: 301 } }] })),
  { filters: [{ type: 'RequestRedirect', requestRedirect: { hostname: 'b.example.com', port: 8443 } }], backends: [] },
  ...['1s', '0s'].map((request) => ({ timeouts: { request } })),
]

/**
 * HTTPRoutes drawn onto the Ingresses' hosts and paths: attached or not (another Gateway, a
 * sectionName none has), one to three weighted Services (one of another namespace, which needs a
 * grant; Services come and go, and one never exists), method, header and query parameter matches, filters and timeouts (ruleExtras).
 */
const arbitraryHttpRoute = fc
  .record({
    name: fc.constantFrom('r1', 'r2', 'r3'),
    // Most often the Gateways' namespace: a listener admits its own namespace's routes unless it says All.
    namespace: fc.constantFrom('default', 'default', 'shop'),
    createdAt: fc.constantFrom(...times),
    parent: fc.constantFrom<{ name: string; namespace?: string; sectionName?: string }>(
      { name: 'edge' },
      { name: 'edge' },
      { name: 'edge' },
      { name: 'edge', namespace: 'default' },
      { name: 'edge', sectionName: 'web' },
      { name: 'edge2', sectionName: 'tls' },
      { name: 'edge', sectionName: 'nope' },
      { name: 'edge', sectionName: 'alt' },
      // A Gateway of shop, which only its listeners that admit All namespaces take routes of default to.
      { name: 'edge', namespace: 'shop' },
    ),
    hostnames: fc.constantFrom<string[] | undefined>(
      undefined,
      ['a.example.com'],
      ['a.example.com'],
      ['a.example.com', 'b.example.com'],
      ['*.example.com'],
      ['x.a.example.com'],
      // A wildcard no Ingress names: it serves names of any number of labels, the longest suffix first.
      ['*.a.example.com'],
      ['*.a.example.com', 'b.example.com'],
    ),
    rules: fc.array(
      fc.record({
        // Most often what hapedge serves: a route with one thing it does not is not served at all.
        path: fc.constantFrom('/', '/api', '/api/v1', '/static', '/', '/api', '/api/v1', '/static', ...paths),
        type: fc.constantFrom('PathPrefix', 'PathPrefix', 'Exact', 'Exact', undefined, undefined, 'RegularExpression'),
        backends: fc.constantFrom<BackendSpec[]>(
          [{ service: 'web' }],
          [
            { service: 'api', weight: 3 },
            { service: 'beta', weight: 1 },
          ],
          [{ service: 'web', weight: 0 }, { service: 'api' }],
          // Every weight 0: the rule sends to none and answers 500; a weight's change to or from it is a map edit.
          [
            { service: 'web', weight: 0 },
            { service: 'api', weight: 0 },
          ],
          [
            { service: 'web', weight: 2 },
            { service: 'api', weight: 1 },
            { service: 'beta', weight: 1 },
          ],
          [{ service: 'web', namespace: 'shop' }],
          // Shares that do not resolve beside one that may (another namespace's without a grant; a Service no draw makes): answered 500.
          [
            { service: 'api', weight: 2 },
            { service: 'web', namespace: 'shop', weight: 1 },
          ],
          [
            { service: 'ghost', weight: 1 },
            { service: 'beta', weight: 1 },
          ],
          // Header filters of a rule's one weighted backendRef (the rule's own), values that change and a name that comes; a
          // split's, each Service's own after the rule's (one that changes a header the rule's X-Team filter does too), or alike.
          [{ service: 'web', filters: [{ type: 'RequestHeaderModifier', requestHeaderModifier: { set: [{ name: 'x-backend', value: 'web' }] } }] }],
          [{ service: 'web', filters: [{ type: 'ResponseHeaderModifier', responseHeaderModifier: { add: [{ name: 'x-served-by', value: 'web-2' }] } }] }],
          [
            { service: 'api', weight: 1, filters: [{ type: 'RequestHeaderModifier', requestHeaderModifier: { remove: ['x-debug'] } }] },
            { service: 'beta', weight: 1 },
          ],
          ...['api', 'api-2'].map((value) => [
            { service: 'api', weight: 1, filters: [{ type: 'RequestHeaderModifier', requestHeaderModifier: { set: [{ name: 'x-backend', value }] } }] },
            { service: 'beta', weight: 1, filters: [{ type: 'RequestHeaderModifier', requestHeaderModifier: { add: [{ name: 'x-team', value: 'beta' }] } }] },
          ]),
          [
            {
              service: 'api',
              weight: 2,
              filters: [{ type: 'ResponseHeaderModifier', responseHeaderModifier: { set: [{ name: 'x-served-by', value: 'both' }] } }],
            },
            {
              service: 'ghost',
              weight: 1,
              filters: [{ type: 'ResponseHeaderModifier', responseHeaderModifier: { set: [{ name: 'x-served-by', value: 'both' }] } }],
            },
          ],
          // A split's Service rewritten by its backendRef (its path and Host, the drawn one's: a runtime edit), beside one
          // the rule's rewrite takes; a ReplacePrefixMatch that a rule rewriting the path too (ruleExtras) makes reported.
          ...['/v2', '/v3'].map((value) => [
            { service: 'api', weight: 1, filters: [{ type: 'URLRewrite', urlRewrite: { path: { type: 'ReplacePrefixMatch', replacePrefixMatch: value } } }] },
            { service: 'web', weight: 1 },
          ]),
          [
            { service: 'api', weight: 1 },
            { service: 'web', weight: 1, filters: [{ type: 'URLRewrite', urlRewrite: { hostname: 'web.internal' } }] },
          ],
        ),
        extra: fc.constantFrom<object>({}, {}, {}, {}, {}, {}, ...ruleExtras),
        // Method, header and query parameter matches: chains of a path, across routes (condition-chains.ts); a name that comes and goes.
        conditions: fc.constantFrom<object>(
          {},
          {},
          {},
          { headers: [{ name: 'x-env', value: 'canary' }] },
          {
            headers: [
              { name: 'X-Env', value: 'beta' },
              { name: 'x-team', value: 'a' },
            ],
          },
          { headers: [{ type: 'RegularExpression', name: 'x-client', value: '^mobile' }] },
          { method: 'POST' },
          { queryParams: [{ name: 'v', value: '2' }] },
        ),
      }),
      { minLength: 1, maxLength: 2 },
    ),
  })
  .map(({ name, namespace, createdAt, parent, hostnames, rules }) =>
    httpRoute({
      name,
      namespace,
      createdAt,
      parents: [parent],
      hostnames,
      rules: rules.map(({ path, type, backends, extra, conditions }) => ({ matches: [{ value: path, type, ...conditions }], backends, ...extra })),
    }),
  )

/**
 * GRPCRoutes beside the HTTPRoutes, on the same hosts: a service and method (Exact), a service
 * alone (a prefix, which a method alone on its host leaves to it), a method alone or RegularExpression (regular expressions of the path), none
 * (`/`, which an HTTPRoute's PathPrefix / may claim too), a header, a split (one with a backendRef's header filter), header filters
 * and a filter GRPCRoute has not (reported).
 */
const grpcRouteOf = (
  methods: readonly (object | undefined)[],
  filters: readonly (object[] | undefined)[],
  headerSets: readonly (object[] | undefined)[] = [undefined, undefined, [{ name: 'x-env', value: 'canary' }]],
) =>
  fc
    .record({
      name: fc.constantFrom('g1', 'g2'),
      namespace: fc.constantFrom('default', 'default', 'shop'),
      createdAt: fc.constantFrom(...times),
      parent: fc.constantFrom<{ name: string; sectionName?: string }>(
        { name: 'edge' },
        { name: 'edge' },
        { name: 'edge2', sectionName: 'tls' },
        { name: 'edge', sectionName: 'nope' },
      ),
      hostnames: fc.constantFrom<string[] | undefined>(undefined, ['a.example.com'], ['a.example.com', 'b.example.com'], ['*.a.example.com']),
      rules: fc.array(
        fc.record({
          method: fc.constantFrom(...methods),
          headers: fc.constantFrom(...headerSets),
          backends: fc.constantFrom<BackendSpec[]>(
            [{ service: 'web' }],
            [
              { service: 'api', weight: 3 },
              { service: 'beta', weight: 1 },
            ],
            [{ service: 'ghost' }],
            [{ service: 'web', namespace: 'shop' }],
            [
              {
                service: 'api',
                weight: 1,
                filters: [{ type: 'ResponseHeaderModifier', responseHeaderModifier: { set: [{ name: 'x-served-by', value: 'api' }] } }],
              },
              { service: 'beta', weight: 1 },
            ],
          ),
          filters: fc.constantFrom(...filters),
        }),
        { minLength: 1, maxLength: 2 },
      ),
    })
    .map(({ name, namespace, createdAt, parent, hostnames, rules }) =>
      grpcRoute({
        name,
        namespace,
        createdAt,
        parents: [parent],
        hostnames,
        rules: rules.map(({ method, headers, backends, filters }) => ({
          matches: method || headers ? [{ ...(method ? { method } : {}), ...(headers ? { headers } : {}) }] : undefined,
          backends,
          filters,
        })),
      }),
    )

const arbitraryGrpcRoute = grpcRouteOf(
  [
    { service: 'hapedge.Echo', method: 'Say' },
    { service: 'hapedge.Echo', method: 'Say' },
    { service: 'hapedge.Echo' },
    { service: 'other.Echo' },
    { method: 'Ping' },
    { type: 'RegularExpression', service: 'hapedge\\.v[0-9]+' },
    undefined,
  ],
  [
    undefined,
    undefined,
    [{ type: 'RequestHeaderModifier', requestHeaderModifier: { set: [{ name: 'X-Team', value: 'grpc' }] } }],
    [{ type: 'URLRewrite', urlRewrite: { hostname: 'x.example.com' } }],
  ],
)

/** The Namespaces of the routes, with labels the Selector listeners read (listenerSets). */
const arbitraryNamespace = fc
  .tuple(
    fc.constantFrom('default', 'shop'),
    fc.constantFrom<Record<string, string> | undefined>(undefined, { team: 'web' }, { team: 'web', env: 'test' }, { env: 'prod' }),
  )
  .map(([name, labels]) => namespace(name, labels))

/** Grants in shop: HTTPRoutes of default sending to its Services (all, or api), Gateways of default serving its Secrets (all, or tls-b); in default: Gateways of shop serving its Secrets. */
const arbitraryReferenceGrant = fc.constantFrom(
  referenceGrant('let', 'shop', 'default'),
  referenceGrant('let', 'shop', 'default', 'api'),
  referenceGrant('certs', 'shop', 'default', undefined, GATEWAY_TO_SECRET),
  referenceGrant('certs', 'shop', 'default', 'tls-b', GATEWAY_TO_SECRET),
  referenceGrant('certs', 'default', 'shop', undefined, GATEWAY_TO_SECRET),
)

export const arbitraryObject = fc.oneof(
  { weight: 5, arbitrary: arbitraryIngress },
  { weight: 1, arbitrary: arbitraryRegexIngress },
  { weight: 2, arbitrary: arbitraryService },
  { weight: 3, arbitrary: arbitrarySlice },
  { weight: 1, arbitrary: arbitrarySecret },
  { weight: 1, arbitrary: arbitraryCaSecret },
  { weight: 1, arbitrary: arbitraryClientCaSecret },
  { weight: 1, arbitrary: fc.oneof({ weight: 6, arbitrary: arbitraryAuthSecret }, { weight: 1, arbitrary: malformedAuthSecret }) },
  { weight: 1, arbitrary: arbitraryClass },
  { weight: 1, arbitrary: arbitraryConfigMap },
  { weight: 4, arbitrary: arbitraryHeadersConfigMap },
  { weight: 3, arbitrary: arbitraryGatewayClass },
  { weight: 3, arbitrary: arbitraryGateway },
  { weight: 6, arbitrary: arbitraryHttpRoute },
  { weight: 2, arbitrary: arbitraryGrpcRoute },
  { weight: 1, arbitrary: arbitraryReferenceGrant },
  { weight: 1, arbitrary: arbitraryNamespace },
)

/**
 * The Gateway API's objects drawn together, with what they name (Services, endpoints, Secrets,
 * the settings) and a few Ingresses to conflict with: in arbitraryObject's wide pool, a
 * GatewayClass, a Gateway and an HTTPRoute that attach to each other are rare.
 */
export const arbitraryGatewayObject = fc.oneof(
  { weight: 2, arbitrary: arbitraryGatewayClass },
  { weight: 3, arbitrary: arbitraryGateway },
  { weight: 6, arbitrary: arbitraryHttpRoute },
  { weight: 3, arbitrary: arbitraryGrpcRoute },
  { weight: 1, arbitrary: arbitraryReferenceGrant },
  { weight: 2, arbitrary: arbitraryNamespace },
  { weight: 2, arbitrary: arbitraryService },
  { weight: 2, arbitrary: arbitrarySlice },
  { weight: 1, arbitrary: arbitrarySecret },
  { weight: 2, arbitrary: arbitraryIngress },
  { weight: 1, arbitrary: arbitraryConfigMap },
)

/**
 * Gateways naming certificates of another namespace, the ReferenceGrants that permit them and the
 * Secrets, and their HTTPRoutes: in arbitraryGatewayObject's pool a grant that comes or goes under
 * a Gateway serving routes of a namespace other than its own is rare.
 */
export const arbitraryCertificateGrantObject = fc.oneof(
  { weight: 1, arbitrary: arbitraryGatewayClass },
  { weight: 3, arbitrary: gatewayOf(crossNamespaceCertificates, ['default', 'shop']) },
  {
    weight: 3,
    // Half of them to the Gateway edge of shop, whose last listener set takes routes of every namespace.
    arbitrary: fc
      .tuple(arbitraryHttpRoute, fc.boolean())
      .map(([route, toShop]) => (toShop ? { ...route, spec: { ...route.spec, parentRefs: [{ name: 'edge', namespace: 'shop' }] } } : route)),
  },
  { weight: 2, arbitrary: arbitrarySecret },
  { weight: 4, arbitrary: arbitraryReferenceGrant },
)

/**
 * Namespaces whose labels change under Gateways and their HTTPRoutes, and little else: a label
 * that turns a Selector listener's choice, with no other change to the route after it, is rare
 * in arbitraryGatewayObject's pool.
 */
export const arbitraryNamespaceObject = fc.oneof(
  { weight: 1, arbitrary: arbitraryGatewayClass },
  { weight: 2, arbitrary: arbitraryGateway },
  { weight: 3, arbitrary: arbitraryHttpRoute },
  { weight: 1, arbitrary: arbitraryGrpcRoute },
  { weight: 5, arbitrary: arbitraryNamespace },
)

/**
 * GRPCRoutes under their Gateways, Services and settings (use-http2), and little else: in
 * arbitraryGatewayObject's pool an HTTPRoute often claims their listener first, so a match of a
 * service alone that comes or goes beside a method alone on one host (which then leaves that
 * service's calls to it, or follows its header matches) is rare.
 */
export const arbitraryGrpcObject = fc.oneof(
  { weight: 1, arbitrary: arbitraryGatewayClass },
  // The class and a Gateway whose one listener takes every route of its namespace: most routes drawn are then served.
  { weight: 1, arbitrary: fc.constantFrom(gatewayClass(), gateway('edge', [{ name: 'any' }])) },
  { weight: 1, arbitrary: arbitraryConfigMap },
  { weight: 2, arbitrary: arbitraryGateway },
  { weight: 6, arbitrary: grpcRouteOf([{ service: 'hapedge.Echo' }, { service: 'other.Echo' }, { method: 'Ping' }, { method: 'Say' }], [undefined]) },
  // Matches of a service alone with header matches only, which the method alone follows in their chains (grpc-services-first.ts).
  {
    weight: 3,
    arbitrary: grpcRouteOf(
      [{ service: 'hapedge.Echo' }, { service: 'other.Echo' }],
      [undefined],
      [[{ name: 'x-env', value: 'canary' }], [{ name: 'x-env', value: 'blue' }]],
    ),
  },
  { weight: 2, arbitrary: arbitraryService },
)

/**
 * Names HTTPRoutes alone serve beneath wildcards they serve too, two levels of them and the routes without hostnames, and
 * Ingresses that come and go on those names (an Ingress's host keeps its requests: it leaves the fall-through map): in
 * arbitraryGatewayObject's pool a name and a wildcard above it that both fall through are rare (3 clusters in 200; here 62, 28 with two wildcard levels).
 */
export const arbitraryFallThroughObject = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(gatewayClass(), gateway('edge', [{ name: 'any', from: 'All' }])) },
  {
    weight: 6,
    arbitrary: fc
      .record({
        name: fc.constantFrom('r1', 'r2', 'r3', 'r4'),
        hostnames: fc.constantFrom<string[] | undefined>(undefined, ['a.example.com'], ['x.a.example.com'], ['*.example.com'], ['*.a.example.com']),
        paths: fc.subarray(['/', '/api', '/static'], { minLength: 1 }),
      })
      .map(({ name, hostnames, paths }) =>
        httpRoute({ name, hostnames, rules: paths.map((value) => ({ matches: [{ value }], backends: [{ service: 'web' }] })) }),
      ),
  },
  { weight: 2, arbitrary: arbitraryIngress },
  { weight: 1, arbitrary: arbitraryService },
)

/**
 * Many Ingresses on one host (and some on another, or with an alias of their own), so that its number crosses
 * WHOLE_HOST_INGRESSES both ways: past it, the host table holds them whole.
 */
export const arbitrarySharedHostObject = fc.oneof(
  {
    weight: 6,
    arbitrary: fc
      .record({
        name: fc.constantFrom('s1', 's2', 's3', 's4', 's5', 's6', 's7'),
        namespace: fc.constantFrom(...namespaces),
        createdAt: fc.constantFrom(...times),
        path: fc.constantFrom('/', '/api', '/static', '/a/b'),
        also: fc.constantFrom(undefined, undefined, 'b.example.com'),
        alias: fc.boolean(),
      })
      .map(({ name, namespace, createdAt, path, also, alias }) =>
        ingress({
          name,
          namespace,
          createdAt,
          annotations: alias ? { 'nginx.ingress.kubernetes.io/server-alias': `${namespace}-${name}.example.com` } : undefined,
          rules: [
            { host: 'a.example.com', paths: [{ path, service: 'web' }] },
            ...(also ? [{ host: also, paths: [{ path: `/${name}`, service: 'api' }] }] : []),
          ],
        }),
      ),
  },
  { weight: 2, arbitrary: arbitraryIngress },
  { weight: 1, arbitrary: arbitraryService },
)

/** Ports of their own for Gateway listeners (none; HTTP 8080; and HTTPS 8443; 8080 for HTTPS, which an HTTP listener is refused). */
const gatewayPortSets: (GatewayPort[] | undefined)[] = [
  undefined,
  [{ port: 8080, protocol: 'HTTP', bind: '0.0.0.0:8080' }],
  [
    { port: 8443, protocol: 'HTTPS', bind: '0.0.0.0:8443' },
    { port: 8080, protocol: 'HTTP', bind: '0.0.0.0:18080' },
  ],
  [{ port: 8080, protocol: 'HTTPS', bind: '0.0.0.0:8080' }],
]

/** A cluster's settings as an operator may change them: its class, its ConfigMap, its binds, whether snippets render, its Gateway ports. */
export const arbitraryOptions: fc.Arbitrary<ClusterOptions> = fc
  .record({
    ingressClass: fc.constantFrom('hapedge', 'nginx'),
    configMap: fc.constantFrom(...configMapNames),
    httpBind: fc.constantFrom('0.0.0.0:80', '127.0.0.1:8080'),
    httpsBind: fc.constantFrom('0.0.0.0:443', '[::]:8443'),
    snippets: fc.constantFrom('forbidden', 'allowed'),
    gatewayPorts: fc.constantFrom(...gatewayPortSets),
  })
  .map(({ gatewayPorts, ...options }) => (gatewayPorts ? { ...options, gatewayPorts } : options))

type AnyObject = { kind: string; metadata: { name: string; namespace?: string } }

export const identityOf = (object: AnyObject) => `${object.kind}/${object.metadata.namespace ?? ''}/${object.metadata.name}`

/** A cluster's objects: each identity at most once (the last drawn wins, as after a stream of updates). */
export const arbitraryCluster = fc
  .array(arbitraryObject, { maxLength: 25 })
  .map((objects) => [...new Map(objects.map((object) => [identityOf(object as AnyObject), object])).values()])
