import { describe, expect, it } from 'vitest'
import { canonicalKey, type FeatureName, featureNames } from '../../../core/annotations/features.ts'
import { readAnnotations } from '../../../core/annotations/read-annotations.ts'
import { SPELLINGS } from '../../../core/annotations/spellings.ts'
import { PREFIXES, type Vocabulary } from '../../../core/annotations/vocabularies.ts'

/** For each feature: its canonical annotation's value as written, and the typed value it reads as. */
const CANONICAL: Record<FeatureName, [string, unknown]> = {
  'ssl-redirect': ['false', false],
  'force-ssl-redirect': ['true', true],
  'ssl-redirect-code': ['308', 308],
  hsts: ['true', true],
  'hsts-max-age': ['31536000', 31536000],
  'hsts-include-subdomains': ['true', true],
  'hsts-preload': ['false', false],
  'permanent-redirect': ['https://example.com/new', 'https://example.com/new'],
  'permanent-redirect-code': ['308', 308],
  'temporal-redirect': ['https://example.com/later', 'https://example.com/later'],
  'temporal-redirect-code': ['307', 307],
  'from-to-www-redirect': ['true', true],
  'app-root': ['/app', '/app'],
  'rewrite-target': ['/$2', '/$2'],
  'use-regex': ['true', 'case-insensitive'],
  'x-forwarded-prefix': ['/app', '/app'],
  'timeout-connect': ['5s', 5000],
  'timeout-server': ['2m', 120000],
  'timeout-tunnel': ['1h', 3600000],
  'proxy-body-size': ['8m', 8 * 1024 * 1024],
  'allowlist-source-range': ['10.0.0.0/8, 192.168.1.1', { ranges: ['10.0.0.0/8', '192.168.1.1'], exceptions: [] }],
  'denylist-source-range': ['2001:db8::/32', { ranges: ['2001:db8::/32'], exceptions: [] }],
  'auth-type': ['basic', 'basic'],
  'auth-secret': ['auth/users', { namespace: 'auth', name: 'users' }],
  'auth-secret-type': ['auth-map', 'auth-map'],
  'auth-realm': ['Staff only', 'Staff only'],
  'auth-url': ['https://$host/oauth2/auth', 'https://$host/oauth2/auth'],
  'auth-method': ['POST', 'POST'],
  'auth-signin': ['https://$host/oauth2/start?rd=$escaped_request_uri', 'https://$host/oauth2/start?rd=$escaped_request_uri'],
  'auth-signin-redirect-param': ['next', 'next'],
  'auth-response-headers': ['X-Auth-Request-User, X-Auth-Request-Email', ['x-auth-request-user', 'x-auth-request-email']],
  'auth-request-redirect': ['https://shop.example.com/', 'https://shop.example.com/'],
  'auth-request-headers': ['Authorization, Cookie', ['authorization', 'cookie']],
  'enable-cors': ['true', true],
  'cors-allow-origin': ['https://a.example, https://*.b.example:8443', { origins: ['https://a.example', 'https://*.b.example:8443'] }],
  'cors-allow-methods': ['get, POST', ['GET', 'POST']],
  'cors-allow-headers': ['X-Requested-With, Content-Type', ['X-Requested-With', 'Content-Type']],
  'cors-expose-headers': ['*, X-Custom', ['*', 'X-Custom']],
  'cors-allow-credentials': ['false', false],
  'cors-max-age': ['600', 600],
  affinity: ['cookie', 'cookie'],
  'affinity-mode': ['persistent', 'persistent'],
  'session-cookie-name': ['SERVERID', 'SERVERID'],
  'session-cookie-path': ['/app', '/app'],
  'session-cookie-domain': ['.example.com', 'example.com'],
  'session-cookie-expires': ['172800', 172800],
  'session-cookie-max-age': ['172800', 172800],
  'session-cookie-secure': ['true', true],
  'session-cookie-samesite': ['strict', 'Strict'],
  'session-cookie-partitioned': ['true', true],
  'backend-protocol': ['h2c', 'H2C'],
  'proxy-ssl-secret': ['default/backend-ca', { namespace: 'default', name: 'backend-ca', key: 'ca.crt' }],
  'proxy-ssl-verify': ['on', true],
  'proxy-ssl-name': ['backend.internal', 'backend.internal'],
  'proxy-ssl-server-name': ['off', false],
  'load-balance': ['leastconn', 'leastconn'],
  'upstream-hash-by': ['header:X-User', { header: 'x-user' }],
  'service-upstream': ['true', true],
  'upstream-vhost': ['api.internal', 'api.internal'],
  'proxy-next-upstream': ['error timeout http_503 non_idempotent', { on: ['conn-failure', 'empty-response', 'response-timeout', '503'], nonIdempotent: true }],
  'proxy-next-upstream-tries': ['3', 3],
  'session-cookie-conditional-samesite-none': ['true', true],
  'health-check': ['true', true],
  'health-check-path': ['/healthz?full=1', '/healthz?full=1'],
  'health-check-interval': ['500ms', 500],
  'health-check-rise': ['2', 2],
  'health-check-fall': ['1', 1],
  'grpc-services': ['greeter, greeter,health', ['greeter', 'health']],
  'ssl-services': ['payments', ['payments']],
  'websocket-services': ['chat', ['chat']],
  'sticky-cookie-services': [
    'serviceName=tea srv_id expires=1h domain=.example.com path=/tea httponly secure samesite=lax;serviceName=coffee c expires=max',
    {
      tea: { name: 'srv_id', maxAge: 3600, domain: 'example.com', path: '/tea', httpOnly: true, secure: true, sameSite: 'Lax' },
      coffee: { name: 'c', maxAge: 315360000 },
    },
  ],
  'request-set-header': ['X-Env production', [{ name: 'X-Env', value: 'production' }]],
  'request-add-header': ['X-Via hapedge', [{ name: 'X-Via', value: 'hapedge' }]],
  'request-del-header': ['X-Debug', ['X-Debug']],
  'response-set-header': [
    'Cache-Control "no-store"\nX-Frame-Options DENY',
    [
      { name: 'Cache-Control', value: 'no-store' },
      { name: 'X-Frame-Options', value: 'DENY' },
    ],
  ],
  'response-add-header': ['Link </style.css>; rel=preload', [{ name: 'Link', value: '</style.css>; rel=preload' }]],
  'response-del-header': ['Server, X-Powered-By', ['Server', 'X-Powered-By']],
  'custom-headers': ['web/security-headers', { namespace: 'web', name: 'security-headers' }],
  'server-alias': ['www.example.com, example.net', ['www.example.com', 'example.net']],
  'mergeable-ingress-type': ['minion', 'minion'],
  canary: ['true', true],
  'canary-weight': ['20', 20],
  'canary-weight-total': ['10', 10],
  'canary-by-header': ['X-Canary', 'x-canary'],
  'canary-by-header-value': ['beta-7', ['beta-7']],
  'canary-by-header-pattern': ['^(?:alpha|v2\\.1)$', { values: ['alpha', 'v2.1'], start: true, end: true }],
  'canary-by-cookie': ['canary_me', 'canary_me'],
  'limit-rps': ['10', 10],
  'limit-rpm': ['600', 600],
  'limit-connections': ['4', 4],
  'limit-burst-multiplier': ['0', 0],
  'limit-allowlist': ['10.0.0.0/8, 192.168.1.1', { ranges: ['10.0.0.0/8', '192.168.1.1'], exceptions: [] }],
  'limit-status-code': ['503', 503],
  'rate-limit-requests': ['100', 100],
  'rate-limit-period': ['1m', 60000],
  'rate-limit-size': ['100k', 100000],
}

/**
 * For each other controller's spelling: a value as that controller documents it, and the typed value
 * (of the spelling's feature) it must read as. `siblings` are the other keys under the same prefix
 * the value's meaning depends on.
 */
type Example = { value: string; expected: unknown; siblings?: Record<string, string> }
const OTHERS: Record<string, Example> = {
  'ingress-nginx ssl-redirect': { value: 'False', expected: false },
  'ingress-nginx force-ssl-redirect': { value: 'true', expected: true },
  'ingress-nginx permanent-redirect': { value: 'https://www.google.com', expected: 'https://www.google.com' },
  'ingress-nginx permanent-redirect-code': { value: '308', expected: 308 },
  'ingress-nginx temporal-redirect': { value: 'https://www.google.com', expected: 'https://www.google.com' },
  'ingress-nginx temporal-redirect-code': { value: '307', expected: 307 },
  'ingress-nginx from-to-www-redirect': { value: 'true', expected: true },
  'ingress-nginx app-root': { value: '/app1', expected: '/app1' },
  'ingress-nginx rewrite-target': { value: '/$2', expected: '/$2' },
  'ingress-nginx use-regex': { value: 'true', expected: 'case-insensitive' },
  'ingress-nginx x-forwarded-prefix': { value: '/path', expected: '/path' },
  'ingress-nginx proxy-connect-timeout': { value: '15', expected: 15000 },
  'ingress-nginx proxy-read-timeout': { value: '120', expected: 120000 },
  'ingress-nginx proxy-send-timeout': { value: '120', expected: 120000 },
  'ingress-nginx proxy-body-size': { value: '0', expected: null },
  'ingress-nginx allowlist-source-range': { value: '10.0.0.0/24,172.10.0.1', expected: { ranges: ['10.0.0.0/24', '172.10.0.1'], exceptions: [] } },
  'ingress-nginx whitelist-source-range': { value: '10.0.0.0/24', expected: { ranges: ['10.0.0.0/24'], exceptions: [] } },
  'ingress-nginx denylist-source-range': { value: '10.0.0.0/24', expected: { ranges: ['10.0.0.0/24'], exceptions: [] } },
  'ingress-nginx auth-type': { value: 'basic', expected: 'basic', siblings: { 'auth-secret': 'users' } },
  'ingress-nginx auth-secret': { value: 'basic-auth', expected: { name: 'basic-auth' } },
  'ingress-nginx auth-secret-type': { value: 'auth-file', expected: 'auth-file' },
  'ingress-nginx auth-realm': { value: 'Authentication Required - foo', expected: 'Authentication Required - foo' },
  'ingress-nginx auth-url': { value: 'http://auth.default.svc.cluster.local:8080/verify', expected: 'http://auth.default.svc.cluster.local:8080/verify' },
  'ingress-nginx auth-method': { value: 'GET', expected: 'GET' },
  'ingress-nginx auth-signin': { value: 'https://auth.example.com/oauth2/start', expected: 'https://auth.example.com/oauth2/start' },
  'ingress-nginx auth-signin-redirect-param': { value: 'return_to', expected: 'return_to' },
  'ingress-nginx auth-response-headers': { value: 'UserID, UserRole', expected: ['userid', 'userrole'] },
  'ingress-nginx auth-request-redirect': { value: '/after-login', expected: '/after-login' },
  'ingress-nginx enable-cors': { value: 'true', expected: true },
  'ingress-nginx cors-allow-origin': { value: '*', expected: { any: true } },
  'ingress-nginx cors-allow-methods': { value: 'PUT, GET, POST, OPTIONS', expected: ['PUT', 'GET', 'POST', 'OPTIONS'] },
  'ingress-nginx cors-allow-headers': { value: 'X-Forwarded-For, X-app123-XPTO', expected: ['X-Forwarded-For', 'X-app123-XPTO'] },
  'ingress-nginx cors-expose-headers': { value: '*, X-CustomResponseHeader', expected: ['*', 'X-CustomResponseHeader'] },
  'ingress-nginx cors-allow-credentials': { value: 'false', expected: false },
  'ingress-nginx cors-max-age': { value: '600', expected: 600 },
  'ingress-nginx affinity': { value: 'cookie', expected: 'cookie' },
  'ingress-nginx affinity-mode': { value: 'balanced', expected: 'balanced' },
  'ingress-nginx session-cookie-name': { value: 'INGRESSCOOKIE', expected: 'INGRESSCOOKIE' },
  'ingress-nginx session-cookie-path': { value: '/', expected: '/' },
  'ingress-nginx session-cookie-domain': { value: 'example.com', expected: 'example.com' },
  'ingress-nginx session-cookie-expires': { value: '172800', expected: 172800 },
  'ingress-nginx session-cookie-max-age': { value: '172800', expected: 172800 },
  'ingress-nginx session-cookie-secure': { value: 'true', expected: true },
  'ingress-nginx session-cookie-samesite': { value: 'None', expected: 'None' },
  'ingress-nginx session-cookie-partitioned': { value: 'true', expected: true },
  'ingress-nginx backend-protocol': { value: 'GRPCS', expected: 'GRPCS' },
  'ingress-nginx proxy-ssl-secret': { value: 'default/ca', expected: { namespace: 'default', name: 'ca', key: 'ca.crt' } },
  'ingress-nginx proxy-ssl-verify': { value: 'on', expected: true },
  'ingress-nginx proxy-ssl-name': { value: 'backend.example.com', expected: 'backend.example.com' },
  'ingress-nginx proxy-ssl-server-name': { value: 'on', expected: true },
  'ingress-nginx load-balance': { value: 'round_robin', expected: 'roundrobin' },
  'ingress-nginx upstream-hash-by': { value: '$request_uri', expected: { uri: true } },
  'ingress-nginx service-upstream': { value: 'true', expected: true },
  'ingress-nginx upstream-vhost': { value: 'internal.example.com', expected: 'internal.example.com' },
  'ingress-nginx custom-headers': { value: 'default/custom-headers', expected: { namespace: 'default', name: 'custom-headers' } },
  'ingress-nginx session-cookie-conditional-samesite-none': { value: 'true', expected: true },
  'haproxy-ingress health-check-uri': { value: '/health', expected: '/health' },
  'haproxy-ingress health-check-interval': { value: '2s', expected: 2000 },
  'haproxy-ingress health-check-rise-count': { value: '2', expected: 2 },
  'haproxy-ingress health-check-fall-count': { value: '3', expected: 3 },
  'haproxytech check': { value: 'true', expected: true },
  'haproxytech check-http': { value: 'HEAD /health', expected: '/health' },
  'haproxytech check-interval': { value: '5s', expected: 5000 },
  'ingress-nginx proxy-next-upstream': { value: 'off', expected: { on: ['none'], nonIdempotent: false } },
  'ingress-nginx proxy-next-upstream-tries': { value: '5', expected: 5 },
  'nginx-inc proxy-next-upstream': {
    value: 'error   timeout         http_500   http_502 ',
    expected: { on: ['conn-failure', 'empty-response', 'response-timeout', '500', '502'], nonIdempotent: false },
  },
  'nginx-inc proxy-next-upstream-tries': { value: '3', expected: 3 },
  'nginx-inc grpc-services': { value: 'grpc-svc', expected: ['grpc-svc'] },
  'nginx-inc ssl-services': { value: 'ssl-svc1,ssl-svc2', expected: ['ssl-svc1', 'ssl-svc2'] },
  'nginx-inc websocket-services': { value: 'ws-svc', expected: ['ws-svc'] },
  'nginx-inc sticky-cookie-services': {
    value: 'serviceName=coffee-svc srv_id expires=1h path=/coffee;serviceName=tea-svc srv_id expires=2h path=/tea',
    expected: { 'coffee-svc': { name: 'srv_id', maxAge: 3600, path: '/coffee' }, 'tea-svc': { name: 'srv_id', maxAge: 7200, path: '/tea' } },
  },
  'ingress-nginx server-alias': { value: 'a.example.com,b.example.com', expected: ['a.example.com', 'b.example.com'] },
  'ingress-nginx canary': { value: 'True', expected: true },
  'ingress-nginx canary-weight': { value: '5', expected: 5 },
  // Its balancer draws from at least 100 (balancer.lua): a smaller total reads as 100.
  'ingress-nginx canary-weight-total': { value: '10', expected: 100 },
  'ingress-nginx canary-by-header': { value: 'X-Canary', expected: 'x-canary' },
  'ingress-nginx canary-by-header-value': { value: 'always-on', expected: ['always-on'] },
  'ingress-nginx canary-by-header-pattern': { value: 'cd|sz', expected: { values: ['cd', 'sz'], start: false, end: false } },
  'ingress-nginx canary-by-cookie': { value: 'use_canary', expected: 'use_canary' },
  'ingress-nginx limit-rps': { value: '5', expected: 5 },
  'ingress-nginx limit-rpm': { value: '300', expected: 300 },
  'ingress-nginx limit-connections': { value: '10', expected: 10 },
  'ingress-nginx limit-burst-multiplier': { value: '3', expected: 3 },
  'ingress-nginx limit-allowlist': { value: '10.0.0.0/24,172.10.0.1', expected: { ranges: ['10.0.0.0/24', '172.10.0.1'], exceptions: [] } },
  'ingress-nginx limit-whitelist': { value: '10.0.0.0/24', expected: { ranges: ['10.0.0.0/24'], exceptions: [] } },
  'haproxy-ingress limit-rps': { value: '20', expected: 20 },
  'haproxy-ingress limit-connections': { value: '10', expected: 10 },
  'haproxy-ingress limit-whitelist': { value: '10.0.0.0/8', expected: { ranges: ['10.0.0.0/8'], exceptions: [] } },
  'haproxytech rate-limit-requests': { value: '15', expected: 15 },
  'haproxytech rate-limit-period': { value: '1m', expected: 60000 },
  'haproxytech rate-limit-size': { value: '100k', expected: 100000 },
  'haproxytech rate-limit-status-code': { value: '429', expected: 429 },
  'haproxytech rate-limit-whitelist': { value: '192.168.1.0/24, 192.168.2.100', expected: { ranges: ['192.168.1.0/24', '192.168.2.100'], exceptions: [] } },
  'nginx-inc limit-req-rate': { value: '600r/m', expected: 600 },
  'nginx-inc limit-req-reject-code': { value: '503', expected: 503 },
  'haproxy-ingress ssl-redirect': { value: 'false', expected: false },
  'haproxy-ingress hsts': { value: 'true', expected: true },
  'haproxy-ingress hsts-max-age': { value: '15768000', expected: 15768000 },
  'haproxy-ingress hsts-include-subdomains': { value: 'true', expected: true },
  'haproxy-ingress hsts-preload': { value: 'true', expected: true },
  'haproxy-ingress redirect-to': { value: 'https://www.app.local/login', expected: 'https://www.app.local/login' },
  'haproxy-ingress app-root': { value: '/app', expected: '/app' },
  'haproxy-ingress rewrite-target': { value: '/', expected: '/' },
  'haproxy-ingress timeout-connect': { value: '5000', expected: 5000 },
  'haproxy-ingress timeout-server': { value: '50s', expected: 50000 },
  'haproxy-ingress timeout-tunnel': { value: '1h', expected: 3600000 },
  'haproxy-ingress proxy-body-size': { value: '10m', expected: 10 * 1024 * 1024 },
  'haproxy-ingress allowlist-source-range': { value: '10.0.0.0/8,!10.100.0.0/16', expected: { ranges: ['10.0.0.0/8'], exceptions: ['10.100.0.0/16'] } },
  'haproxy-ingress whitelist-source-range': { value: '10.0.0.0/8', expected: { ranges: ['10.0.0.0/8'], exceptions: [] } },
  'haproxy-ingress denylist-source-range': { value: '10.0.0.0/8', expected: { ranges: ['10.0.0.0/8'], exceptions: [] } },
  'haproxy-ingress auth-secret': { value: 'ingress/users', expected: { namespace: 'ingress', name: 'users' } },
  'haproxy-ingress auth-realm': { value: 'localhost', expected: 'localhost' },
  'haproxy-ingress auth-url': { value: 'https://10.0.0.2/auth', expected: 'https://10.0.0.2/auth' },
  'haproxy-ingress auth-method': { value: 'HEAD', expected: 'HEAD' },
  'haproxy-ingress auth-signin': { value: 'https://auth.example.com/login', expected: 'https://auth.example.com/login' },
  'haproxy-ingress auth-headers-succeed': { value: 'X-Token,X-User', expected: ['x-token', 'x-user'] },
  'haproxy-ingress auth-headers-request': { value: '-', expected: [] },
  'haproxy-ingress auth-type': { value: 'basic', expected: 'basic', siblings: { 'auth-secret': 'users' } },
  'haproxy-ingress cors-enable': { value: 'true', expected: true },
  'haproxy-ingress cors-allow-origin': { value: 'https://a.example,https://b.example', expected: { origins: ['https://a.example', 'https://b.example'] } },
  'haproxy-ingress cors-allow-methods': { value: 'GET, PUT, POST, DELETE, PATCH, OPTIONS', expected: ['GET', 'PUT', 'POST', 'DELETE', 'PATCH', 'OPTIONS'] },
  'haproxy-ingress cors-allow-headers': { value: 'DNT,Keep-Alive', expected: ['DNT', 'Keep-Alive'] },
  'haproxy-ingress cors-allow-credentials': { value: 'true', expected: true },
  'haproxy-ingress cors-max-age': { value: '86400', expected: 86400 },
  'haproxy-ingress cors-expose-headers': { value: 'X-Total', expected: ['X-Total'] },
  'haproxy-ingress affinity': { value: 'cookie', expected: 'cookie' },
  'haproxy-ingress session-cookie-name': { value: 'INGRESSCOOKIE', expected: 'INGRESSCOOKIE' },
  'haproxy-ingress backend-protocol': { value: 'h2', expected: 'GRPCS', siblings: { 'secure-backends': 'true' } },
  'haproxy-ingress secure-backends': { value: 'true', expected: 'HTTPS' },
  'haproxy-ingress secure-verify-ca-secret': { value: 'backend-ca', expected: { name: 'backend-ca', key: 'ca.crt' } },
  'haproxy-ingress secure-verify-hostname': { value: 'backend.local', expected: 'backend.local' },
  'haproxy-ingress balance-algorithm': { value: 'leastconn', expected: 'leastconn' },
  'haproxy-ingress service-upstream': { value: 'true', expected: true },
  'haproxy-ingress headers': {
    value: 'x-path: /\nx-env: prod',
    expected: [
      { name: 'x-path', value: '/' },
      { name: 'x-env', value: 'prod' },
    ],
  },
  'haproxy-ingress server-alias': { value: '*.my.domain', expected: ['*.my.domain'] },
  'haproxytech ssl-redirect': { value: 'true', expected: true },
  'haproxytech ssl-redirect-code': { value: '301', expected: 301 },
  'haproxytech allow-list': { value: '192.168.1.0/24, 192.168.2.100', expected: { ranges: ['192.168.1.0/24', '192.168.2.100'], exceptions: [] } },
  'haproxytech whitelist': { value: '192.168.1.0/24', expected: { ranges: ['192.168.1.0/24'], exceptions: [] } },
  'haproxytech deny-list': { value: '192.168.2.100', expected: { ranges: ['192.168.2.100'], exceptions: [] } },
  'haproxytech blacklist': { value: '192.168.2.100', expected: { ranges: ['192.168.2.100'], exceptions: [] } },
  'haproxytech auth-type': { value: 'basic-auth', expected: 'basic', siblings: { 'auth-secret': 'users' } },
  'haproxytech auth-secret': { value: 'default/haproxy-credentials', expected: { namespace: 'default', name: 'haproxy-credentials' } },
  'haproxytech auth-realm': { value: 'Admin Area', expected: 'Admin Area' },
  'haproxytech cors-enable': { value: 'true', expected: true },
  'haproxytech cors-allow-origin': {
    value: '^https://(.+\\.)?(example-1\\.com|example-2\\.com)(:\\d{1,5})?$',
    expected: { pattern: '^https://(.+\\.)?(example-1\\.com|example-2\\.com)(:\\d{1,5})?$' },
  },
  'haproxytech cors-allow-methods': { value: 'GET, POST', expected: ['GET', 'POST'] },
  'haproxytech cors-allow-credentials': { value: 'true', expected: true },
  'haproxytech cors-allow-headers': { value: '*', expected: ['*'] },
  'haproxytech cors-max-age': { value: '1m', expected: 60 },
  'haproxytech load-balance': { value: 'random', expected: 'random' },
  'haproxytech request-set-header': {
    value: 'Ingress-ID abcd123\nAnother-Header 12345',
    expected: [
      { name: 'Ingress-ID', value: 'abcd123' },
      { name: 'Another-Header', value: '12345' },
    ],
  },
  'haproxytech response-set-header': {
    value: 'Cache-Control "no-store,no-cache,private"',
    expected: [{ name: 'Cache-Control', value: 'no-store,no-cache,private' }],
  },
  'haproxytech set-host': { value: 'example.local', expected: 'example.local' },
  'haproxytech server-ssl': { value: 'true', expected: 'HTTPS' },
  'haproxytech server-proto': { value: 'h2', expected: 'H2C' },
  'haproxytech server-ca': { value: 'ns1/ca', expected: { namespace: 'ns1', name: 'ca', key: 'tls.crt' } },
  'haproxytech timeout-server': { value: '5s', expected: 5000 },
  'haproxytech cookie-persistence': { value: 'mycookie', expected: 'mycookie' },
  'nginx-inc ssl-redirect': { value: 'true', expected: true },
  'nginx-inc redirect-to-https': { value: 'true', expected: true },
  'nginx-inc http-redirect-code': { value: '307', expected: 307 },
  'nginx-inc hsts': { value: 'true', expected: true },
  'nginx-inc hsts-max-age': { value: '2592000', expected: 2592000 },
  'nginx-inc hsts-include-subdomains': { value: 'true', expected: true },
  'nginx-inc app-root': { value: '/coffee', expected: '/coffee' },
  'nginx-inc rewrite-target': { value: '/beverages/$1/$2', expected: '/beverages/$1/$2' },
  'nginx-inc path-regex': { value: 'case_sensitive', expected: 'case-sensitive' },
  'nginx-inc proxy-connect-timeout': { value: '30s', expected: 30000 },
  'nginx-inc proxy-read-timeout': { value: '20s', expected: 20000 },
  'nginx-inc proxy-send-timeout': { value: '1m', expected: 60000 },
  'nginx-inc client-max-body-size': { value: '4m', expected: 4 * 1024 * 1024 },
  'nginx-inc basic-auth-secret': { value: 'cafe-passwd', expected: { name: 'cafe-passwd' } },
  'nginx-inc basic-auth-realm': { value: 'Cafe App', expected: 'Cafe App' },
  'nginx-inc lb-method': { value: 'least_conn', expected: 'leastconn' },
  'nginx-inc use-cluster-ip': { value: 'true', expected: true },
  'nginx-inc proxy-set-headers': {
    value: 'header-a: valueA,header-b: valueB',
    expected: [
      { name: 'header-a', value: 'valueA' },
      { name: 'header-b', value: 'valueB' },
    ],
  },
  'nginx-inc proxy-hide-headers': { value: 'header-a,header-b', expected: ['header-a', 'header-b'] },
  'nginx-inc mergeable-ingress-type': { value: 'master', expected: 'master' },
}

/** The prefix a vocabulary's examples are written under: the first of its own (not the shared one). */
const OWN_PREFIX = Object.fromEntries(
  PREFIXES.filter(({ vocabularies }) => vocabularies.length === 1)
    .reverse()
    .map(({ prefix, vocabularies }) => [vocabularies[0], prefix]),
) as Record<Vocabulary, string>

/** Basic authentication takes a method and a Secret together (each alone is refused or warned about). */
const AUTH_COMPANION: Partial<Record<FeatureName, Record<string, string>>> = {
  'auth-type': { 'hapedge.io/auth-secret': 'users' },
  'auth-secret': { 'hapedge.io/auth-type': 'basic' },
}

describe('the canonical hapedge.io/ annotations', () => {
  it.each(featureNames)('%s reads its example as the typed value', (feature) => {
    const [value, expected] = CANONICAL[feature]
    const reading = readAnnotations({ ...AUTH_COMPANION[feature], [canonicalKey(feature)]: value })
    expect(reading.refusals).toEqual([])
    expect(reading.warnings).toEqual([])
    expect(reading.features[feature]).toEqual(expected)
    expect(reading.sources[feature]).toBe(canonicalKey(feature))
  })
})

describe("other controllers' spellings", () => {
  const others = SPELLINGS.filter((spelling) => spelling.vocabulary !== 'hapedge')

  it('every spelling has an example here, so none is untested', () => {
    expect(others.map((spelling) => `${spelling.vocabulary} ${spelling.suffix}`).filter((name) => !(name in OTHERS))).toEqual([])
  })

  it("every spelling names the section of its controller's page it was taken from", () => {
    expect(others.filter((spelling) => spelling.doc.trim() === '').map((spelling) => spelling.suffix)).toEqual([])
  })

  it.each(others.map((spelling) => [`${OWN_PREFIX[spelling.vocabulary]}${spelling.suffix}`, spelling] as const))(
    '%s reads its documented form',
    (key, spelling) => {
      const example = OTHERS[`${spelling.vocabulary} ${spelling.suffix}`]!
      const prefix = OWN_PREFIX[spelling.vocabulary]
      const siblings = Object.fromEntries(Object.entries(example.siblings ?? {}).map(([suffix, value]) => [prefix + suffix, value]))
      const reading = readAnnotations({ ...siblings, [key]: example.value })
      expect(reading.features[spelling.feature]).toEqual(example.expected)
      expect(reading.refusals).toEqual([])
    },
  )
})
