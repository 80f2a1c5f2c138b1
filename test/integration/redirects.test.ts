import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { makeCertificate } from '../support/certificates.ts'
import { configMap, ingress, tlsSecret } from '../support/objects.ts'
import { makeTempDir, removeTempDir } from '../support/temp-dir.ts'
import { answeredBy, serveCluster, type ServedCluster } from './serve-cluster.ts'
import { startServices, type ServiceBackends } from './service-backends.ts'

/**
 * The redirects and HSTS through the real HAProxy, each from hapedge's spelling and another
 * controller's: the status code and the Location (path and query kept where ingress-nginx keeps
 * them), and Strict-Transport-Security on HTTPS answers only.
 */

const prefix = (path: string, service: string) => ({ path, pathType: 'Prefix' as const, service })
const NO_HTTPS_REDIRECT = { 'hapedge.io/ssl-redirect': 'false' }
/** A target with what a map line or a command line could take for syntax: `;`, `\`, `#`, `|`, quotes. */
const UNUSUAL_TARGET = 'https://example.com/p;q\\r|s?a="1"&b=%20#top'

describe('redirects and HSTS', () => {
  let certDir: string
  let services: ServiceBackends
  let cluster: ServedCluster
  /** The Host header with the HTTP port, as a browser sends it for a port other than 80. */
  const withPort = (host: string) => `${host}:${cluster.httpPort}`
  const https = (host: string) => `https://${host}:${cluster.httpsPort}`

  beforeAll(async () => {
    certDir = await makeTempDir('hapedge-redirects')
    const tlsHosts = ['code.test', 'hsts.test', 'nginx-hsts.test', 'hi-hsts.test', 'no-hsts.test']
    const certs = await Promise.all(tlsHosts.map((host) => makeCertificate({ dir: certDir, hosts: [host], name: host.split('.')[0]! })))
    services = await startServices(['site', 'kept', 'app', 'secure'])
    const tls = (host: string) => ({ tls: [{ hosts: [host], secretName: `${host.split('.')[0]}-tls` }] })
    const site = (name: string, host: string, annotations: Record<string, string>, extra = {}) =>
      ingress({ name, annotations, rules: [{ host, paths: [prefix('/', 'site')] }], ...extra })
    cluster = await serveCluster([
      ...services.objects,
      ...tlsHosts.map((host, i) => tlsSecret(`${host.split('.')[0]}-tls`, certs[i]!.certPem, certs[i]!.keyPem)),
      // HTTPS to a host without a certificate of its own is served the default one (strict-sni otherwise).
      configMap({ 'default-ssl-certificate': 'default/code-tls' }),
      // permanent-redirect and temporal-redirect: every route of the Ingress, and only its routes.
      site('permanent', 'moved.test', { 'nginx.ingress.kubernetes.io/permanent-redirect': 'https://example.com/new?from=moved' }),
      ingress({ name: 'kept', rules: [{ host: 'moved.test', paths: [prefix('/kept', 'kept')] }] }),
      site('unusual', 'unusual.test', { 'hapedge.io/permanent-redirect': UNUSUAL_TARGET }),
      site('permanent-code', 'moved-308.test', { 'hapedge.io/permanent-redirect': 'https://example.com/308', 'hapedge.io/permanent-redirect-code': '308' }),
      site('temporal', 'away.test', { 'nginx.ingress.kubernetes.io/temporal-redirect': 'http://example.org/away' }),
      site('temporal-code', 'away-307.test', {
        'hapedge.io/temporal-redirect': 'http://example.org/307',
        'hapedge.io/temporal-redirect-code': '307',
        'hapedge.io/permanent-redirect': 'https://example.com/not-this-one',
      }),
      site('redirect-to', 'redirect-to.test', { 'haproxy-ingress.github.io/redirect-to': 'https://example.net/hi' }),
      // app-root: `/` only, to the same scheme and host.
      ingress({
        name: 'app-root',
        annotations: { 'nginx.ingress.kubernetes.io/app-root': '/app' },
        rules: [{ host: 'root.test', paths: [prefix('/', 'app')] }],
      }),
      site('hapedge-app-root', 'root-hapedge.test', { 'hapedge.io/app-root': '/home/index.html' }),
      // force-ssl-redirect without TLS, and a code.
      site('force', 'force.test', { 'nginx.ingress.kubernetes.io/force-ssl-redirect': 'true' }),
      ingress({ name: 'any-host', annotations: { 'nginx.ingress.kubernetes.io/force-ssl-redirect': 'true' }, rules: [{ paths: [prefix('/', 'secure')] }] }),
      site('redirect-to-https', 'force-301.test', { 'nginx.org/redirect-to-https': 'true', 'nginx.org/http-redirect-code': '301' }),
      site('code', 'code.test', { 'haproxy.org/ssl-redirect-code': '302' }, tls('code.test')),
      // HSTS: hapedge's keys, NGINX Inc.'s (hsts implies preload), haproxy-ingress's (the default max-age).
      site(
        'hsts',
        'hsts.test',
        {
          ...NO_HTTPS_REDIRECT,
          'hapedge.io/hsts': 'true',
          'hapedge.io/hsts-max-age': '600',
          'hapedge.io/hsts-include-subdomains': 'true',
          'hapedge.io/hsts-preload': 'true',
        },
        tls('hsts.test'),
      ),
      site('nginx-hsts', 'nginx-hsts.test', { ...NO_HTTPS_REDIRECT, 'nginx.org/hsts': 'true', 'nginx.org/hsts-max-age': '100' }, tls('nginx-hsts.test')),
      site('hi-hsts', 'hi-hsts.test', { ...NO_HTTPS_REDIRECT, 'haproxy-ingress.github.io/hsts': 'true' }, tls('hi-hsts.test')),
      site('no-hsts', 'no-hsts.test', NO_HTTPS_REDIRECT, tls('no-hsts.test')),
      // from-to-www-redirect, both ways; a name served on its own is never redirected.
      site('to-bare', 'bare.test', { 'nginx.ingress.kubernetes.io/from-to-www-redirect': 'true' }),
      site('to-www', 'www.prefixed.test', { 'hapedge.io/from-to-www-redirect': 'true' }),
      site('both-served', 'served.test', { 'hapedge.io/from-to-www-redirect': 'true' }),
      ingress({ name: 'www-served', rules: [{ host: 'www.served.test', paths: [prefix('/', 'secure')] }] }),
    ])
  })

  afterAll(async () => {
    await cluster?.stop()
    await services?.close()
    if (certDir) await removeTempDir(certDir)
  })

  const expectRedirect = async (sent: Promise<{ status: number; headers: Record<string, unknown> }>, status: number, location: string) => {
    const response = await sent
    expect({ status: response.status, location: response.headers.location }).toEqual({ status, location })
  }

  it('permanent-redirect answers 301 with its URL for every path of the Ingress, and the host’s other Ingress still serves', async () => {
    for (const path of ['/', '/any/path?x=1']) await expectRedirect(cluster.get('moved.test', path), 301, 'https://example.com/new?from=moved')
    await expectRedirect(cluster.get('moved-308.test', '/x'), 308, 'https://example.com/308')
    await expectRedirect(cluster.get('unusual.test', '/'), 301, UNUSUAL_TARGET)
    expect(answeredBy(await cluster.get('moved.test', '/kept/page'))).toBe('kept')
    expect(services.backend('site').requests).toBe(0)
  })

  it('temporal-redirect answers 302 (or its code) and takes precedence over permanent-redirect; haproxy-ingress’s redirect-to is the same', async () => {
    await expectRedirect(cluster.get('away.test', '/x?y=1'), 302, 'http://example.org/away')
    await expectRedirect(cluster.get('away-307.test', '/'), 307, 'http://example.org/307')
    await expectRedirect(cluster.get('redirect-to.test', '/'), 302, 'https://example.net/hi')
  })

  it('app-root redirects `/` alone (302) to the path on the same scheme and host; other paths are served', async () => {
    await expectRedirect(cluster.get('root.test', '/'), 302, 'http://root.test/app')
    await expectRedirect(cluster.get(withPort('root.test'), '/?q=1'), 302, `http://${withPort('root.test')}/app`)
    await expectRedirect(cluster.https('root-hapedge.test', '/'), 302, 'https://root-hapedge.test/home/index.html')
    expect(answeredBy(await cluster.get('root.test', '/app'))).toBe('app')
    expect(answeredBy(await cluster.get('root.test', '/other?q=1'))).toBe('app')
  })

  it('force-ssl-redirect redirects plain HTTP to HTTPS without a TLS entry, with the code the Ingress names', async () => {
    await expectRedirect(cluster.get('force.test', '/cart?id=7'), 308, `${https('force.test')}/cart?id=7`)
    await expectRedirect(cluster.get('force-301.test', '/cart?id=7'), 301, `${https('force-301.test')}/cart?id=7`)
    // The rules without host serve any host no rule names.
    await expectRedirect(cluster.get('anything.test', '/x'), 308, `${https('anything.test')}/x`)
    expect(answeredBy(await cluster.https('anything.test', '/x'))).toBe('secure')
    await expectRedirect(cluster.get('code.test', '/x'), 302, `${https('code.test')}/x`)
    expect(answeredBy(await cluster.https('code.test', '/x'))).toBe('site')
  })

  it('HSTS is sent on HTTPS answers only, with the max-age and directives asked for', async () => {
    const cases: [host: string, header: string | undefined][] = [
      ['hsts.test', 'max-age=600; includeSubDomains; preload'],
      ['nginx-hsts.test', 'max-age=100; preload'],
      ['hi-hsts.test', 'max-age=31536000'],
      ['no-hsts.test', undefined],
    ]
    for (const [host, header] of cases) {
      const secure = await cluster.https(host, '/x')
      expect(answeredBy(secure), host).toBe('site')
      expect(secure.headers['strict-transport-security'], host).toBe(header)
      const plain = await cluster.get(host, '/x')
      expect(answeredBy(plain), host).toBe('site')
      expect(plain.headers['strict-transport-security'], host).toBeUndefined()
    }
  })

  it('HSTS from the settings (ingress-nginx’s ConfigMap keys) on every host whose certificate’s Ingress says nothing of it; an Ingress’s own keys win', async () => {
    const hosts = ['cm-default.test', 'cm-own.test', 'cm-off.test']
    const certs = await Promise.all(hosts.map((host) => makeCertificate({ dir: certDir, hosts: [host], name: host.split('.')[0]! })))
    const tls = (host: string) => ({ tls: [{ hosts: [host], secretName: `${host.split('.')[0]}-tls` }] })
    const site = (name: string, host: string, annotations: Record<string, string>) =>
      ingress({ name, annotations: { ...NO_HTTPS_REDIRECT, ...annotations }, rules: [{ host, paths: [prefix('/', 'site')] }], ...tls(host) })
    const withSettings = await serveCluster([
      ...services.objects,
      ...hosts.map((host, i) => tlsSecret(`${host.split('.')[0]}-tls`, certs[i]!.certPem, certs[i]!.keyPem)),
      configMap({ hsts: 'true', 'hsts-max-age': '300', 'hsts-include-subdomains': 'true' }),
      site('cm-default', 'cm-default.test', {}),
      site('cm-own', 'cm-own.test', { 'hapedge.io/hsts-max-age': '60', 'hapedge.io/hsts-include-subdomains': 'false' }),
      site('cm-off', 'cm-off.test', { 'haproxy-ingress.github.io/hsts': 'false' }),
    ])
    try {
      const cases: [host: string, header: string | undefined][] = [
        ['cm-default.test', 'max-age=300; includeSubDomains'],
        ['cm-own.test', 'max-age=60'],
        ['cm-off.test', undefined],
      ]
      for (const [host, header] of cases) {
        expect((await withSettings.https(host, '/x')).headers['strict-transport-security'], host).toBe(header)
        expect((await withSettings.get(host, '/x')).headers['strict-transport-security'], host).toBeUndefined()
      }
      expect(withSettings.model.rejections).toEqual([])
    } finally {
      await withSettings.stop()
    }
  })

  it('from-to-www-redirect sends the other name to the host (308), keeping the port, path and query', async () => {
    await expectRedirect(cluster.get('www.bare.test', '/p/q?x=1'), 308, 'http://bare.test/p/q?x=1')
    await expectRedirect(cluster.get(withPort('prefixed.test'), '/p?x=1'), 308, `http://${withPort('www.prefixed.test')}/p?x=1`)
    await expectRedirect(cluster.https('www.bare.test', '/p', 'bare.test'), 308, 'https://bare.test/p')
    expect(answeredBy(await cluster.get('bare.test', '/p'))).toBe('site')
    expect(answeredBy(await cluster.get('www.served.test', '/p'))).toBe('secure')
  })

  it('honours every key asked for here, and warns only of the permanent-redirect that temporal-redirect overrides', () => {
    expect(cluster.model.warnings).toEqual([
      {
        object: 'Ingress default/temporal-code',
        annotation: 'hapedge.io/permanent-redirect',
        reason: 'temporal-redirect takes precedence, as in ingress-nginx; ignored',
      },
    ])
  })
})
