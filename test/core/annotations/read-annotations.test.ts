import { describe, expect, it } from 'vitest'
import { RESTRICTIONS } from '../../../core/annotations/access.ts'
import { annotationPath, readAnnotations } from '../../../core/annotations/read-annotations.ts'
import { PREFIXES } from '../../../core/annotations/vocabularies.ts'

const keysOf = (notices: { annotation: string }[]) => notices.map((notice) => notice.annotation)

describe('readAnnotations: precedence between spellings', () => {
  it('follows hapedge.io/ over any other spelling, and warns about the other naming both keys', () => {
    const reading = readAnnotations({ 'hapedge.io/ssl-redirect': 'true', 'nginx.ingress.kubernetes.io/ssl-redirect': 'false' })
    expect(reading.features['ssl-redirect']).toBe(true)
    expect(reading.sources['ssl-redirect']).toBe('hapedge.io/ssl-redirect')
    expect(reading.warnings).toHaveLength(1)
    expect(reading.warnings[0]!.annotation).toBe('nginx.ingress.kubernetes.io/ssl-redirect')
    expect(reading.warnings[0]!.reason).toContain('hapedge.io/ssl-redirect')
  })

  it('ranks the prefixes in the documented order', () => {
    const spelling = PREFIXES.map(({ prefix }) => `${prefix}ssl-redirect`).filter((key) => readAnnotations({ [key]: 'true' }).sources['ssl-redirect'] === key)
    expect(spelling.length).toBeGreaterThan(5)
    for (let earlier = 0; earlier < spelling.length; earlier++)
      for (let later = earlier + 1; later < spelling.length; later++) {
        const reading = readAnnotations({ [spelling[later]!]: 'false', [spelling[earlier]!]: 'true' })
        expect(reading.sources['ssl-redirect']).toBe(spelling[earlier])
        expect(keysOf(reading.warnings)).toEqual([spelling[later]])
      }
  })

  it('says nothing when two spellings agree, however each is written', () => {
    const reading = readAnnotations({ 'nginx.ingress.kubernetes.io/proxy-read-timeout': '120', 'haproxy-ingress.github.io/timeout-server': '2m' })
    expect(reading.features['timeout-server']).toBe(120_000)
    expect(reading.warnings).toEqual([])
    expect(reading.honoured).toEqual(['haproxy-ingress.github.io/timeout-server', 'nginx.ingress.kubernetes.io/proxy-read-timeout'])
  })

  it('reads an explicit ingress.kubernetes.io/ssl-redirect: "false" (issue 20: it was overridden)', () => {
    const reading = readAnnotations({ 'ingress.kubernetes.io/ssl-redirect': 'false' })
    expect(reading.features['ssl-redirect']).toBe(false)
    expect(reading.warnings).toEqual([])
  })

  it('warns when read and send timeouts differ, since HAProxy has one server timeout', () => {
    const reading = readAnnotations({ 'nginx.ingress.kubernetes.io/proxy-read-timeout': '60', 'nginx.ingress.kubernetes.io/proxy-send-timeout': '30' })
    expect(reading.features['timeout-server']).toBe(60_000)
    expect(keysOf(reading.warnings)).toEqual(['nginx.ingress.kubernetes.io/proxy-send-timeout'])
  })
})

describe('readAnnotations: never silent', () => {
  it('warns about every key under a known prefix that it does not honour, naming the key', () => {
    const reading = readAnnotations({
      'nginx.ingress.kubernetes.io/proxy-buffering': 'on',
      'haproxy.org/path-rewrite': '/',
      'nginx.org/bad': 'x',
      'hapedge.io/unknown': 'x',
    })
    expect(keysOf(reading.warnings)).toEqual(['hapedge.io/unknown', 'haproxy.org/path-rewrite', 'nginx.ingress.kubernetes.io/proxy-buffering', 'nginx.org/bad'])
    expect(reading.warnings.find((notice) => notice.annotation === 'nginx.org/bad')!.reason).toBe('not supported by hapedge')
    expect(reading.refusals).toEqual([])
  })

  it("skips other controllers' and tools' keys", () => {
    const reading = readAnnotations({
      'kubernetes.io/ingress.class': 'nginx',
      'cert-manager.io/cluster-issuer': 'letsencrypt',
      'traefik.ingress.kubernetes.io/router.tls': 'true',
      'konghq.com/plugins': 'key-auth',
    })
    expect(reading).toEqual({ features: {}, sources: {}, honoured: [], readFrom: {}, warnings: [], refusals: [] })
  })

  it('reads canary Ingresses’ keys (they were refused as route conflicts before canaries were honoured)', () => {
    const reading = readAnnotations({ 'nginx.ingress.kubernetes.io/canary': 'true', 'nginx.ingress.kubernetes.io/canary-weight': '40' })
    expect(reading).toMatchObject({ features: { canary: true, 'canary-weight': 40 }, warnings: [] })
  })

  it('gives the field path of a value it cannot read, and ignores that annotation', () => {
    const reading = readAnnotations({ 'nginx.ingress.kubernetes.io/proxy-body-size': 'lots' })
    expect(reading.features['proxy-body-size']).toBeUndefined()
    expect(reading.warnings).toEqual([
      {
        annotation: 'nginx.ingress.kubernetes.io/proxy-body-size',
        reason: expect.stringMatching(/^metadata\.annotations\["nginx\.ingress\.kubernetes\.io\/proxy-body-size"\]: "lots" must be a size/),
      },
    ])
    expect(annotationPath('haproxy.org/x')).toBe('metadata.annotations["haproxy.org/x"]')
  })
})

describe('readAnnotations: raw snippets', () => {
  it.each([
    ['nginx.ingress.kubernetes.io/configuration-snippet', 'more_set_headers "Request-Id: $req_id";\nproxy_cache_valid 200 1m;'],
    ['nginx.ingress.kubernetes.io/server-snippet', 'proxy_ssl_verify off;\nset $agentflag 0;'],
    ['nginx.ingress.kubernetes.io/auth-snippet', 'proxy_set_header Foo-Header 42;'],
    ['haproxy-ingress.github.io/config-backend', 'http-request set-var(txn.path) path'],
    ['haproxy.org/backend-config-snippet', 'http-send-name-header x-dst-server'],
    ['nginx.org/server-snippets', 'location / { return 302 /coffee; }'],
  ])('%s is refused with a warning, never passed on', (key, value) => {
    const reading = readAnnotations({ [key]: value })
    expect(reading.warnings).toEqual([{ annotation: key, reason: expect.stringContaining('never passed on') }])
    expect(reading.refusals).toEqual([])
    expect(reading.features).toEqual({})
  })

  it.each([
    ['nginx.org/location-snippets', 'auth_request /_oauth2/auth;\nauth_request_set $auth_user $upstream_http_x_auth_request_user;', 'auth_request'],
    ['nginx.ingress.kubernetes.io/server-snippet', 'location ~ ^/(admin|internal) {\n  deny all;\n}', 'deny'],
    ['nginx.ingress.kubernetes.io/configuration-snippet', 'allow 10.0.0.0/8;\ndeny all;', 'allow'],
    ['haproxy-ingress.github.io/config-backend', 'acl bar-url path /bar\nhttp-request deny if bar-url', 'http-request deny'],
    ['haproxy.org/backend-config-snippet', 'http-request auth unless { http_auth(users) }', 'http-request auth'],
  ])('%s that restricts access refuses the Ingress (fail closed)', (key, value, directive) => {
    const reading = readAnnotations({ [key]: value })
    expect(reading.refusals).toEqual([{ annotation: key, reason: expect.stringContaining(`(${directive})`) }])
  })
})

describe('readAnnotations: what restricts access and cannot be honoured fails closed', () => {
  const OWN: Record<string, string> = {
    'ingress-nginx': 'nginx.ingress.kubernetes.io/',
    'haproxy-ingress': 'haproxy-ingress.github.io/',
    haproxytech: 'haproxy.org/',
    'nginx-inc': '',
  }
  const VALUE: Record<string, string> = { satisfy: 'any', 'enable-modsecurity': 'true', 'enable-owasp-core-rules': 'true', 'auth-tls-verify-client': 'on' }

  it.each(RESTRICTIONS.map((entry) => [`${OWN[entry.vocabulary]}${entry.suffix}`, entry] as const))('%s is refused with its reason', (key, entry) => {
    const reading = readAnnotations({ [key]: VALUE[entry.suffix] ?? 'https://auth.example.com/check' })
    expect(reading.refusals).toEqual([{ annotation: key, reason: expect.stringContaining(entry.reason) }])
  })

  it.each([
    ['nginx.ingress.kubernetes.io/satisfy', 'all'],
    ['nginx.ingress.kubernetes.io/enable-modsecurity', 'false'],
  ])('%s: %s restricts nothing, so it only warns', (key, value) => {
    const reading = readAnnotations({ [key]: value })
    expect(reading.refusals).toEqual([])
    expect(keysOf(reading.warnings)).toEqual([key])
  })

  it.each([
    ['nginx.ingress.kubernetes.io/auth-type', 'digest'],
    ['haproxy.org/auth-type', 'basic'],
    ['nginx.ingress.kubernetes.io/whitelist-source-range', '10.0.0.0/33'],
    ['haproxy.org/allow-list', 'patterns/ips'],
    ['nginx.ingress.kubernetes.io/denylist-source-range', '!10.0.0.1'],
    ['haproxy-ingress.github.io/auth-secret', 'file:///dir/users.list'],
    ['nginx.ingress.kubernetes.io/auth-secret-type', 'ldap'],
    ['nginx.ingress.kubernetes.io/auth-tls-verify-client', 'sometimes'],
  ])('%s: %s, a value it cannot honour, refuses the Ingress with the field path', (key, value) => {
    const reading = readAnnotations({ 'nginx.ingress.kubernetes.io/auth-secret': 'users', 'nginx.ingress.kubernetes.io/auth-type': 'basic', [key]: value })
    expect(reading.refusals).toContainEqual({ annotation: key, reason: expect.stringContaining(`${annotationPath(key)}: `) })
  })

  it('refuses basic authentication without a Secret: nobody could be checked', () => {
    const reading = readAnnotations({ 'nginx.ingress.kubernetes.io/auth-type': 'basic' })
    expect(reading.refusals).toEqual([{ annotation: 'nginx.ingress.kubernetes.io/auth-type', reason: expect.stringContaining('without auth-secret') }])
    expect(reading.features['auth-type']).toBeUndefined()
  })

  it('checks a Secret given without a method instead of serving the routes open, and says so', () => {
    const reading = readAnnotations({ 'nginx.ingress.kubernetes.io/auth-secret': 'users' })
    expect(reading.features).toEqual({ 'auth-type': 'basic', 'auth-secret': { name: 'users' } })
    expect(reading.warnings).toEqual([{ annotation: 'nginx.ingress.kubernetes.io/auth-secret', reason: expect.stringContaining('without auth-type') }])
  })

  it("refuses haproxytech's src-ip-header with a source list (the list would check the proxy), and only warns without one", () => {
    const withList = readAnnotations({ 'haproxy.org/src-ip-header': 'True-Client-IP', 'haproxy.org/allow-list': '10.0.0.0/8' })
    expect(keysOf(withList.refusals)).toEqual(['haproxy.org/src-ip-header'])
    const alone = readAnnotations({ 'haproxy.org/src-ip-header': 'True-Client-IP' })
    expect(alone.refusals).toEqual([])
    expect(keysOf(alone.warnings)).toEqual(['haproxy.org/src-ip-header'])
  })
})

describe("readAnnotations: each controller's implied defaults", () => {
  it("haproxy-ingress's auth-secret enables basic authentication with an htpasswd file", () => {
    const reading = readAnnotations({ 'haproxy-ingress.github.io/auth-secret': 'users' })
    expect(reading.features).toMatchObject({ 'auth-type': 'basic', 'auth-secret-type': 'auth-file' })
    expect(reading.sources['auth-type']).toBe('haproxy-ingress.github.io/auth-secret (implied)')
    expect(reading.warnings).toEqual([])
  })

  it("under the shared ingress.kubernetes.io/ prefix, haproxytech's basic-auth reads the Secret one key per user", () => {
    const reading = readAnnotations({ 'ingress.kubernetes.io/auth-type': 'basic-auth', 'ingress.kubernetes.io/auth-secret': 'users' })
    expect(reading.features).toMatchObject({ 'auth-type': 'basic', 'auth-secret-type': 'auth-map' })
  })

  it("haproxytech's auth-secret holds one key per user, NGINX Inc.'s an htpasswd file under `htpasswd`", () => {
    expect(readAnnotations({ 'haproxy.org/auth-type': 'basic-auth', 'haproxy.org/auth-secret': 'u' }).features['auth-secret-type']).toBe('auth-map')
    expect(readAnnotations({ 'nginx.org/basic-auth-secret': 'u' }).features).toMatchObject({ 'auth-type': 'basic', 'auth-secret-type': 'nginx-htpasswd' })
  })

  it('an explicit value wins over an implied one', () => {
    const reading = readAnnotations({ 'haproxy.org/cors-enable': 'true', 'nginx.ingress.kubernetes.io/cors-allow-credentials': 'true' })
    expect(reading.features['cors-allow-credentials']).toBe(true)
    expect(readAnnotations({ 'haproxy.org/cors-enable': 'true' }).features['cors-allow-credentials']).toBe(false)
  })

  it("NGINX Inc.'s hsts includes preload", () => {
    expect(readAnnotations({ 'nginx.org/hsts': 'true' }).features).toEqual({ hsts: true, 'hsts-preload': true })
  })
})
