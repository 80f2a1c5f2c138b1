import type { Vocabulary } from './vocabularies.ts'

/**
 * Every Ingress annotation each controller documents, as read from the stored copy of its page
 * (repository, path, commit below), with the values it documents for the keys hapedge reads. The
 * README's compatibility table judges each key through the model with these values
 * (core/compatibility/), so its statuses are computed, never written by hand.
 *
 * Only keys that are Ingress annotations are listed: haproxy-ingress keys of the Global scope are
 * ConfigMap keys ("Configuration keys of the Global scope declared as Ingress or Service annotations
 * … are ignored", keys.md, Scope), haproxytech keys not "Available on: ingress" are ConfigMap or
 * Service keys, and NGINX Inc.'s ConfigMap-only keys have no annotation.
 */
export interface DocumentedKey {
  /** The whole annotation: prefix and key. */
  annotation: string
  /** Values as the page documents them, the first its example; each is judged. Empty for a key the model reads no value of. */
  values: readonly string[]
  /** Annotations the key takes effect with (basic authentication takes a method and a Secret). */
  with: Readonly<Record<string, string>>
}

export interface KeySource {
  url: string
  repository: string
  path: string
  commit: string
}

export interface ControllerKeys {
  vocabulary: Exclude<Vocabulary, 'hapedge'>
  /** The prefixes the table names for the controller. */
  prefixes: readonly string[]
  sources: readonly KeySource[]
  /** Which of the page's keys are listed, when not all are. */
  scope: string
  keys: readonly DocumentedKey[]
}

/** A key's documented values, and the annotations (without prefix) it is judged with. */
type Documented = readonly string[] | { values: readonly string[]; with: Readonly<Record<string, string>> }

function under(prefix: string, keys: Readonly<Record<string, Documented>>): DocumentedKey[] {
  return Object.entries(keys).map(([key, documented]) => {
    const { values, with: companions = {} } = Array.isArray(documented)
      ? { values: documented as readonly string[] }
      : (documented as Exclude<Documented, readonly string[]>)
    return {
      annotation: prefix + key,
      values,
      with: Object.fromEntries(Object.entries(companions).map(([name, value]) => [name.includes('/') ? name : prefix + name, value])),
    }
  })
}

/** Keys listed by name only (`prefix` before each): hapedge reads no value of them (a test keeps that true). */
const named = (keys: string, prefix = ''): Record<string, Documented> =>
  Object.fromEntries(
    keys
      .trim()
      .split(/\s+/)
      .map((key) => [prefix + key, []]),
  )

const NGINX_BASIC_AUTH = { 'auth-type': 'basic', 'auth-secret': 'basic-auth' }
/** #external-authentication's example: auth-url, which its companions take effect with. */
const NGINX_EXTERNAL_AUTH = { 'auth-url': 'https://$host/oauth2/auth' }

const ingressNginx: ControllerKeys = {
  vocabulary: 'ingress-nginx',
  prefixes: ['nginx.ingress.kubernetes.io/'],
  sources: [
    {
      url: 'https://kubernetes.github.io/ingress-nginx/user-guide/nginx-configuration/annotations-risk/',
      repository: 'kubernetes/ingress-nginx',
      path: 'docs/user-guide/nginx-configuration/annotations-risk.md',
      commit: '03c5ce57add53dd5c3230e8e38ff3f2fbcccdee8',
    },
    {
      url: 'https://kubernetes.github.io/ingress-nginx/user-guide/nginx-configuration/annotations/',
      repository: 'kubernetes/ingress-nginx',
      path: 'docs/user-guide/nginx-configuration/annotations.md',
      commit: '003d71d90afbdd35f9ed5071e6a84b5dc4b92dce',
    },
  ],
  scope: "every key of annotations-risk.md (generated from the parsers) and of annotations.md's table, which still lists a few older keys",
  keys: under('nginx.ingress.kubernetes.io/', {
    'app-root': ['/app1'],
    affinity: ['cookie'],
    'affinity-mode': ['balanced', 'persistent'],
    'allowlist-source-range': ['10.0.0.0/24,172.10.0.1'],
    'auth-realm': { values: ['Authentication Required - foo'], with: NGINX_BASIC_AUTH },
    'auth-secret': { values: ['basic-auth'], with: { 'auth-type': 'basic' } },
    'auth-secret-type': { values: ['auth-file', 'auth-map'], with: NGINX_BASIC_AUTH },
    'auth-type': { values: ['basic', 'digest'], with: { 'auth-secret': 'basic-auth' } },
    'auth-method': { values: ['GET', 'POST'], with: NGINX_EXTERNAL_AUTH },
    'auth-request-redirect': { values: ['https://example.com/after-login'], with: NGINX_EXTERNAL_AUTH },
    'auth-response-headers': { values: ['UserID, UserRole'], with: NGINX_EXTERNAL_AUTH },
    'auth-signin': { values: ['https://$host/oauth2/start?rd=$escaped_request_uri'], with: NGINX_EXTERNAL_AUTH },
    'auth-signin-redirect-param': { values: ['orig'], with: { ...NGINX_EXTERNAL_AUTH, 'auth-signin': 'https://$host/oauth2/start' } },
    'auth-snippet': ['proxy_set_header Foo-Header 42;'],
    'auth-tls-match-cn': { values: ['CN=client'], with: { 'auth-tls-secret': 'default/ca-secret' } },
    'auth-tls-secret': ['default/ca-secret'],
    'auth-tls-verify-client': ['on', 'off', 'optional', 'optional_no_ca'],
    'auth-tls-error-page': { values: ['http://www.mysite.com/error-cert.html'], with: { 'auth-tls-secret': 'default/ca-secret' } },
    'auth-tls-pass-certificate-to-upstream': { values: ['true', 'false'], with: { 'auth-tls-secret': 'default/ca-secret' } },
    'auth-tls-verify-depth': { values: ['1'], with: { 'auth-tls-secret': 'default/ca-secret' } },
    'auth-url': ['https://$host/oauth2/auth'],
    'backend-protocol': ['HTTP', 'HTTPS', 'GRPC', 'GRPCS', 'AJP', 'FCGI'],
    // #canary: a canary Ingress, its header, cookie and weight ("always"/"never" are request values, not annotation values).
    canary: ['true'],
    'canary-by-cookie': { values: ['canary'], with: { canary: 'true' } },
    'canary-by-header': { values: ['X-Canary'], with: { canary: 'true' } },
    'canary-by-header-pattern': { values: ['^(beta|gamma)$', 'beta.*'], with: { canary: 'true', 'canary-by-header': 'X-Canary' } },
    'canary-by-header-value': { values: ['beta'], with: { canary: 'true', 'canary-by-header': 'X-Canary' } },
    'canary-weight': { values: ['20'], with: { canary: 'true' } },
    'canary-weight-total': { values: ['1000'], with: { canary: 'true', 'canary-weight': '20' } },
    'configuration-snippet': ['more_set_headers "Request-Id: $req_id";'],
    'cors-allow-credentials': { values: ['false'], with: { 'enable-cors': 'true' } },
    'cors-allow-headers': { values: ['X-Forwarded-For, X-app123-XPTO'], with: { 'enable-cors': 'true' } },
    'cors-allow-methods': { values: ['PUT, GET, POST, OPTIONS'], with: { 'enable-cors': 'true' } },
    'cors-allow-origin': { values: ['*', 'https://origin-site.com:4443, http://origin-site.com, https://example.org:1199'], with: { 'enable-cors': 'true' } },
    'cors-expose-headers': { values: ['*, X-CustomResponseHeader'], with: { 'enable-cors': 'true' } },
    'cors-max-age': { values: ['600'], with: { 'enable-cors': 'true' } },
    'custom-headers': ['default/custom-headers'],
    'denylist-source-range': ['10.0.0.0/24,172.10.0.1'],
    'enable-cors': ['true'],
    'enable-modsecurity': ['true'],
    'enable-owasp-core-rules': ['true'],
    'force-ssl-redirect': ['true'],
    'from-to-www-redirect': ['true'],
    'load-balance': ['round_robin', 'ewma'],
    'modsecurity-snippet': ['SecRuleEngine On'],
    'permanent-redirect': ['https://www.google.com'],
    'permanent-redirect-code': { values: ['308'], with: { 'permanent-redirect': 'https://www.google.com' } },
    'proxy-body-size': ['8m', '0'],
    'proxy-connect-timeout': ['15'],
    'proxy-read-timeout': ['120'],
    'proxy-send-timeout': ['120'],
    // #custom-timeouts names them with NGINX's values: proxy_next_upstream's conditions, proxy_next_upstream_tries' count.
    'proxy-next-upstream': ['error timeout', 'error timeout http_502 http_503 non_idempotent', 'off'],
    'proxy-next-upstream-tries': ['3'],
    'proxy-ssl-name': { values: ['backend.example.com'], with: { 'backend-protocol': 'HTTPS', 'proxy-ssl-secret': 'default/ca' } },
    'proxy-ssl-secret': { values: ['default/ca'], with: { 'backend-protocol': 'HTTPS' } },
    'proxy-ssl-server-name': { values: ['on', 'off'], with: { 'backend-protocol': 'HTTPS', 'proxy-ssl-secret': 'default/ca' } },
    'proxy-ssl-verify': { values: ['on', 'off'], with: { 'backend-protocol': 'HTTPS', 'proxy-ssl-secret': 'default/ca' } },
    'rewrite-target': ['/$2'],
    satisfy: ['any', 'all'],
    'server-alias': ['a.example.com,b.example.com'],
    'server-snippet': ['set $agentflag 0;'],
    'service-upstream': ['true'],
    'session-cookie-domain': { values: ['example.com'], with: { affinity: 'cookie' } },
    'session-cookie-expires': { values: ['172800'], with: { affinity: 'cookie' } },
    'session-cookie-max-age': { values: ['172800'], with: { affinity: 'cookie' } },
    'session-cookie-name': { values: ['INGRESSCOOKIE'], with: { affinity: 'cookie' } },
    'session-cookie-path': { values: ['/'], with: { affinity: 'cookie' } },
    'session-cookie-samesite': { values: ['None', 'Lax', 'Strict'], with: { affinity: 'cookie' } },
    'session-cookie-secure': { values: ['true'], with: { affinity: 'cookie' } },
    'session-cookie-conditional-samesite-none': { values: ['true'], with: { affinity: 'cookie', 'session-cookie-samesite': 'None' } },
    'session-cookie-partitioned': {
      values: ['true', 'false'],
      with: { affinity: 'cookie', 'session-cookie-samesite': 'None', 'session-cookie-secure': 'true' },
    },
    'ssl-redirect': ['true', 'false'],
    'stream-snippet': ['server { listen 8000; proxy_pass 127.0.0.1:80; }'],
    'temporal-redirect': ['https://www.google.com'],
    'temporal-redirect-code': { values: ['307'], with: { 'temporal-redirect': 'https://www.google.com' } },
    'upstream-hash-by': ['$request_uri', '$request_uri$host', '${request_uri}-text-value'],
    'upstream-vhost': ['internal.example.com'],
    'use-regex': ['true', 'false'],
    'whitelist-source-range': ['10.0.0.0/24,172.10.0.1'],
    'x-forwarded-prefix': ['/path'],
    // #rate-limiting
    'limit-rps': ['5'],
    'limit-rpm': ['300'],
    // #mirror
    'mirror-target': ['https://test.env.com/$request_uri'],
    'mirror-request-body': { values: ['off'], with: { 'mirror-target': 'https://test.env.com/$request_uri' } },
    'mirror-host': { values: ['test.env.com'], with: { 'mirror-target': 'https://test.env.com/$request_uri' } },
    'limit-connections': ['10'],
    'limit-burst-multiplier': { values: ['5'], with: { 'limit-rps': '5' } },
    'limit-allowlist': { values: ['10.0.0.0/24,172.10.0.1'], with: { 'limit-rps': '5' } },
    ...named(`
      affinity-canary-behavior auth-always-set-cookie auth-cache-duration auth-cache-key auth-keepalive
      auth-keepalive-requests auth-keepalive-share-vars auth-keepalive-timeout auth-proxy-set-headers
      client-body-buffer-size
      connection-proxy-header custom-http-errors default-backend disable-proxy-intercept-errors enable-access-log
      enable-global-auth enable-influxdb enable-opentelemetry enable-opentracing enable-rewrite-log fastcgi-index
      fastcgi-params-configmap global-rate-limit global-rate-limit-ignored-cidrs global-rate-limit-key
      global-rate-limit-window http2-push-preload influxdb-host influxdb-measurement influxdb-port
      influxdb-server-name limit-rate limit-rate-after
      modsecurity-transaction-id
      opentelemetry-operation-name opentelemetry-trust-incoming-span opentracing-trust-incoming-span
      preserve-trailing-slash proxy-buffer-size proxy-buffering proxy-buffers-number proxy-cookie-domain
      proxy-cookie-path proxy-http-version proxy-max-temp-file-size proxy-next-upstream-timeout
      proxy-redirect-from proxy-redirect-to proxy-request-buffering proxy-ssl-ciphers
      proxy-ssl-protocols proxy-ssl-verify-depth session-cookie-change-on-failure
      ssl-ciphers ssl-passthrough
      ssl-prefer-server-ciphers upstream-hash-by-subset upstream-hash-by-subset-size use-port-in-redirects
    `),
  }),
}

const haproxyIngress: ControllerKeys = {
  vocabulary: 'haproxy-ingress',
  prefixes: ['haproxy-ingress.github.io/', 'ingress.kubernetes.io/'],
  sources: [
    {
      url: 'https://haproxy-ingress.github.io/docs/configuration/keys/',
      repository: 'jcmoraisjr/haproxy-ingress',
      path: 'docs/content/en/docs/configuration/keys.md',
      commit: '009c1139862f3a0f59f66309f8b298732ce6de2c',
    },
  ],
  scope:
    'the keys of the Host, Backend, Path and TCP scopes in the page\'s "Keys" table, and the deprecated `auth-type` of its Auth Basic section; Global keys are ConfigMap keys, which haproxy-ingress ignores on Ingresses (hapedge reports them as not supported, and the Global `config-*` snippets as refused)',
  keys: under('haproxy-ingress.github.io/', {
    affinity: ['cookie'],
    'allowlist-source-range': ['10.0.0.0/8,!10.100.0.0/16'],
    'app-root': ['/app'],
    'auth-realm': { values: ['localhost'], with: { 'auth-secret': 'ingress/users' } },
    'auth-secret': ['ingress/users'],
    'auth-headers-succeed': { values: ['X-Token,X-User-Id', 'X-Token,X-User-*', '-'], with: { 'auth-url': 'https://auth.example.com/oauth2/auth' } },
    'auth-headers-request': { values: ['X-Token,Authorization', 'X-*', '-'], with: { 'auth-url': 'https://auth.example.com/oauth2/auth' } },
    'auth-method': { values: ['GET', '*'], with: { 'auth-url': 'https://auth.example.com/oauth2/auth' } },
    'auth-signin': { values: ['https://auth.example.com/oauth2/start'], with: { 'auth-url': 'https://auth.example.com/oauth2/auth' } },
    'auth-tls-secret': ['default/client-ca'],
    'auth-tls-verify-client': ['on', 'off', 'optional', 'optional_no_ca'],
    'auth-tls-error-page': { values: ['https://example.com/cert-error.html'], with: { 'auth-tls-secret': 'default/client-ca' } },
    'auth-type': { values: ['basic'], with: { 'auth-secret': 'ingress/users' } },
    'auth-url': ['https://auth.example.com/oauth2/auth'],
    'backend-protocol': ['h1', 'h2', 'h1-ssl', 'h2-ssl'],
    'balance-algorithm': ['roundrobin', 'leastconn', 'source', 'random'],
    'config-backend': ['acl bar-url path /bar\nhttp-request deny if bar-url\n'],
    'health-check-fall-count': ['3'],
    'health-check-interval': ['2s'],
    'health-check-rise-count': ['2'],
    'health-check-uri': ['/health'],
    'config-tcp-service': ['timeout client 1m\n'],
    'cors-allow-credentials': { values: ['true'], with: { 'cors-enable': 'true' } },
    'cors-allow-headers': { values: ['DNT,Keep-Alive'], with: { 'cors-enable': 'true' } },
    'cors-allow-methods': { values: ['GET, PUT, POST, DELETE, PATCH, OPTIONS'], with: { 'cors-enable': 'true' } },
    'cors-allow-origin': { values: ['*', 'https://a.example,https://b.example'], with: { 'cors-enable': 'true' } },
    'cors-enable': ['true'],
    'cors-expose-headers': { values: ['X-Total'], with: { 'cors-enable': 'true' } },
    'cors-max-age': { values: ['86400'], with: { 'cors-enable': 'true' } },
    'denylist-source-range': ['10.0.0.0/8'],
    headers: ['x-path: /\nx-env: prod'],
    hsts: ['true'],
    'hsts-include-subdomains': ['true'],
    'hsts-max-age': ['15768000'],
    'hsts-preload': ['true'],
    'limit-connections': ['10'],
    'limit-rps': ['20'],
    'limit-whitelist': { values: ['10.0.0.0/8'], with: { 'limit-rps': '20' } },
    oauth: ['oauth2_proxy'],
    'proxy-body-size': ['10m', 'unlimited'],
    'redirect-to': ['https://www.app.local/login'],
    'rewrite-target': ['/'],
    'secure-backends': ['true'],
    'secure-verify-ca-secret': { values: ['backend-ca'], with: { 'secure-backends': 'true' } },
    'secure-verify-hostname': { values: ['backend.local'], with: { 'secure-backends': 'true', 'secure-verify-ca-secret': 'backend-ca' } },
    'server-alias': ['*.my.domain'],
    'service-upstream': ['true'],
    'session-cookie-name': { values: ['INGRESSCOOKIE'], with: { affinity: 'cookie' } },
    'ssl-redirect': ['true', 'false'],
    'timeout-connect': ['5s'],
    'timeout-server': ['50s'],
    'timeout-tunnel': ['1h'],
    waf: ['modsecurity'],
    'whitelist-source-range': ['10.0.0.0/8'],
    ...named(`
      agent-check-addr agent-check-interval agent-check-port agent-check-send auth-headers-fail
      auth-tls-cert-header auth-tls-strict backend-check-interval
      backend-server-naming backend-server-slots-increment blue-green-balance blue-green-cookie blue-green-deploy
      blue-green-header blue-green-mode cert-signer dynamic-scaling health-check-addr
      health-check-port initial-weight
      maxconn-server maxqueue-server oauth-headers oauth-uri-prefix
      path-type proxy-protocol redirect-from redirect-from-regex secure-crt-secret secure-sni server-alias-regex
      session-cookie-dynamic session-cookie-keywords session-cookie-preserve session-cookie-shared
      session-cookie-strategy session-cookie-value-strategy slots-min-free source-address-intf ssl-always-add-https
      ssl-cipher-suites ssl-cipher-suites-backend ssl-ciphers ssl-ciphers-backend ssl-fingerprint-lower
      ssl-options-backend ssl-options-host ssl-passthrough ssl-passthrough-http-port tcp-service-log-format
      tcp-service-port tcp-service-proxy-protocol timeout-http-request timeout-keep-alive timeout-queue
      timeout-server-fin tls-alpn use-resolver var-namespace waf-mode
    `),
  }),
}

const HAPROXYTECH_BASIC_AUTH = { 'auth-type': 'basic-auth', 'auth-secret': 'default/haproxy-credentials' }

const haproxytech: ControllerKeys = {
  vocabulary: 'haproxytech',
  prefixes: ['haproxy.org/', 'haproxy.com/', 'ingress.kubernetes.io/'],
  sources: [
    {
      url: 'https://github.com/haproxytech/kubernetes-ingress/blob/master/documentation/annotations.md',
      repository: 'haproxytech/kubernetes-ingress',
      path: 'documentation/annotations.md',
      commit: '0245a02021bd874f5f1e7fca4b23e454975a2105',
    },
  ],
  scope: 'the annotations marked for Ingress in the page\'s "Available annotations" table (controller 3.2); ConfigMap- and Service-only ones are left out',
  keys: under('haproxy.org/', {
    'allow-list': ['192.168.1.0/24, 192.168.2.100', 'patterns/ips'],
    'auth-realm': { values: ['Admin Area'], with: HAPROXYTECH_BASIC_AUTH },
    'auth-secret': { values: ['default/haproxy-credentials'], with: { 'auth-type': 'basic-auth' } },
    'auth-type': { values: ['basic-auth'], with: { 'auth-secret': 'default/haproxy-credentials' } },
    'backend-config-snippet': ['http-send-name-header x-dst-server\nstick-table type string len 32 size 100k expire 30m\nstick on req.cook(sessionid)\n'],
    blacklist: ['192.168.1.0/24, 192.168.2.100', 'patterns/ips'],
    check: ['true'],
    'check-http': ['/health'],
    'check-interval': ['5s'],
    'cors-allow-credentials': { values: ['true'], with: { 'cors-enable': 'true' } },
    'cors-allow-headers': { values: ['*', 'X-Custom-Header', 'X-Custom-Header, Upgrade-Insecure-Requests'], with: { 'cors-enable': 'true' } },
    'cors-allow-methods': { values: ['*', 'GET', 'GET, POST'], with: { 'cors-enable': 'true' } },
    'cors-allow-origin': {
      values: ['*', 'https://example.com', '^https://(.+\\.)?(example-1\\.com|example-2\\.com)(:\\d{1,5})?$'],
      with: { 'cors-enable': 'true' },
    },
    'cors-enable': ['true'],
    'cors-max-age': { values: ['1m'], with: { 'cors-enable': 'true' } },
    'deny-list': ['192.168.1.0/24, 192.168.2.100', 'patterns/ips'],
    'load-balance': ['roundrobin', 'leastconn', 'source', 'random'],
    'rate-limit-period': { values: ['1s', '1m'], with: { 'rate-limit-requests': '15' } },
    'rate-limit-requests': ['15'],
    'rate-limit-size': { values: ['100k'], with: { 'rate-limit-requests': '15' } },
    'rate-limit-status-code': { values: ['403', '429'], with: { 'rate-limit-requests': '15' } },
    'rate-limit-whitelist': { values: ['192.168.1.0/24, 192.168.2.100', 'patterns/ips'], with: { 'rate-limit-requests': '15' } },
    'request-set-header': ['Ingress-ID abcd123\nAnother-Header 12345'],
    'response-set-header': ['Cache-Control "no-store,no-cache,private"'],
    'server-ca': { values: ['ns1/ca'], with: { 'server-ssl': 'true' } },
    'server-proto': ['h2'],
    'server-ssl': ['true'],
    'set-host': ['example.local'],
    'src-ip-header': ['True-Client-IP'],
    'ssl-redirect': ['true', 'false'],
    'ssl-redirect-code': ['301', '302', '303'],
    'timeout-server': ['5s'],
    whitelist: ['192.168.1.0/24, 192.168.2.100', 'patterns/ips'],
    ...named(`
      forwarded-for path-rewrite pod-maxconn request-capture request-capture-len request-redirect
      request-redirect-code scale-server-slots send-proxy-protocol server-crt ssl-passthrough ssl-redirect-port
      standalone-backend timeout-check
    `),
  }),
}

const NGINX_INC_BASIC_AUTH = { 'nginx.org/basic-auth-secret': 'cafe-passwd' }

const nginxInc: ControllerKeys = {
  vocabulary: 'nginx-inc',
  prefixes: ['nginx.org/', 'nginx.com/'],
  sources: [
    {
      url: 'https://docs.nginx.com/nginx-ingress-controller/configuration/ingress-resources/advanced-configuration-with-annotations/',
      repository: 'nginx/documentation',
      path: 'content/nic/configuration/ingress-resources/advanced-configuration-with-annotations.md',
      commit: '08c4aa3d7963d1ff0a26a4a2ad302c8eedf03dc4',
    },
    {
      url: 'https://github.com/nginx/kubernetes-ingress/tree/main/examples/ingress-resources/mergeable-ingress-types',
      repository: 'nginx/kubernetes-ingress',
      path: 'examples/ingress-resources/mergeable-ingress-types/README.md',
      commit: '0684f740843fae665806b26dcf98fcca2b78380c',
    },
  ],
  scope:
    'the annotations of the page\'s "Summary of Annotations" tables, and `nginx.org/mergeable-ingress-type` of the mergeable Ingress types example; `nginx.com/` keys are NGINX Plus only, and the App Protect ones (`appprotect.f5.com/`, `appprotectdos.f5.com/`) are under prefixes hapedge does not read',
  keys: under('', {
    'nginx.org/app-root': ['/coffee'],
    'nginx.org/basic-auth-realm': { values: ['Cafe App'], with: NGINX_INC_BASIC_AUTH },
    'nginx.org/basic-auth-secret': ['cafe-passwd'],
    'nginx.org/client-max-body-size': ['4m'],
    'nginx.org/hsts': ['true'],
    'nginx.org/hsts-include-subdomains': { values: ['true'], with: { 'nginx.org/hsts': 'true' } },
    'nginx.org/hsts-max-age': { values: ['2592000'], with: { 'nginx.org/hsts': 'true' } },
    'nginx.org/http-redirect-code': ['301', '302', '307', '308'],
    'nginx.org/lb-method': ['round_robin', 'random two least_conn'],
    'nginx.org/limit-req-rate': ['10r/s', '600r/m'],
    'nginx.org/limit-req-reject-code': { values: ['429'], with: { 'nginx.org/limit-req-rate': '10r/s' } },
    'nginx.org/mergeable-ingress-type': ['master', 'minion'],
    'nginx.org/location-snippets': ['add_header my-test-header test-value;'],
    'nginx.org/path-regex': ['case_sensitive', 'case_insensitive', 'exact'],
    'nginx.org/policies': ['webapp-policy'],
    'nginx.org/proxy-connect-timeout': ['30s'],
    'nginx.org/proxy-hide-headers': ['header-a,header-b'],
    'nginx.org/proxy-next-upstream': ['error timeout', 'error timeout http_500 http_502 http_503 http_504'],
    'nginx.org/proxy-next-upstream-tries': ['3'],
    'nginx.org/proxy-read-timeout': ['20s'],
    'nginx.org/grpc-services': ['grpc-svc'],
    'nginx.org/ssl-services': ['ssl-svc1,ssl-svc2'],
    'nginx.org/websocket-services': ['ws-svc'],
    'nginx.org/sticky-cookie-services': ['serviceName=coffee-svc srv_id expires=1h path=/coffee;serviceName=tea-svc srv_id expires=2h path=/tea'],
    'nginx.com/sticky-cookie-services': ['serviceName=coffee-svc srv_id expires=1h path=/coffee;serviceName=tea-svc srv_id expires=2h path=/tea'],
    'nginx.org/proxy-send-timeout': ['20s'],
    'nginx.org/proxy-set-headers': ['header-a: valueA,header-b: valueB,header-c: valueC'],
    'nginx.org/redirect-to-https': ['true'],
    'nginx.org/rewrite-target': { values: ['/beverages/$1/$2'], with: { 'nginx.org/path-regex': 'case_sensitive' } },
    'nginx.org/server-snippets': ['location / {\n  return 302 /coffee;\n}\n'],
    'nginx.org/ssl-redirect': ['true', 'false'],
    'nginx.org/use-cluster-ip': ['true'],
    'nginx.com/jwt-key': ['cafe-jwk'],
    'nginx.com/jwt-login-url': ['https://login.example.com'],
    'nginx.com/jwt-realm': ['Cafe App'],
    'nginx.com/jwt-token': ['$cookie_auth_token'],
    ...named(
      `
      client-body-buffer-size fail-timeout hsts-behind-proxy keepalive limit-req-burst limit-req-delay
      limit-req-dry-run limit-req-key limit-req-log-level limit-req-no-delay
      limit-req-scale limit-req-zone-size listen-ports listen-ports-ssl max-conns max-fails proxy-buffer-size
      proxy-buffering proxy-buffers proxy-busy-buffers-size proxy-max-temp-file-size
      proxy-next-upstream-timeout proxy-pass-headers rewrites server-tokens ssl-ciphers
      ssl-prefer-server-ciphers upstream-zone-size
      `,
      'nginx.org/',
    ),
    ...named('health-checks health-checks-mandatory health-checks-mandatory-queue slow-start', 'nginx.com/'),
  }),
}

/** The four controllers' documented Ingress annotations, in the order of the precedence (vocabularies.ts). */
export const DOCUMENTED_KEYS: readonly ControllerKeys[] = [ingressNginx, haproxyIngress, haproxytech, nginxInc]
