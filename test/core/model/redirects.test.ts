import { describe, expect, it } from 'vitest'
import { LiveCluster } from '../../../core/incremental/live-cluster.ts'
import { REDIRECT_BACKEND } from '../../../core/model/backend-ref.ts'
import { otherWwwName } from '../../../core/model/www-name.ts'
import { FILES } from '../../../core/render/files.ts'
import { fullRebuild } from '../../../core/render/full-rebuild.ts'
import { fixtureCertificate } from '../../support/fixtures.ts'
import { authSecret, endpointSlice, ingress, service, tlsSecret } from '../../support/objects.ts'

/** The redirects and HSTS in the model and the maps: who decides per host, what a route that redirects uses, and what a change costs. */

const shop = fixtureCertificate('shop.example.com')
const shopSecret = tlsSecret('shop-tls', shop.certPem, shop.keyPem)
const HOST = 'shop.example.com'
const web = (annotations: Record<string, string> = {}, extra: { tls?: boolean; name?: string; path?: string; createdAt?: string } = {}) =>
  ingress({
    name: extra.name ?? 'web',
    annotations,
    createdAt: extra.createdAt,
    rules: [{ host: HOST, paths: [{ path: extra.path ?? '/', service: 'web' }] }],
    ...(extra.tls ? { tls: [{ hosts: [HOST], secretName: 'shop-tls' }] } : {}),
  })
const added = (object: unknown) => ({ type: 'ADDED' as const, object: object as Record<string, unknown> })
const modified = (object: unknown) => ({ type: 'MODIFIED' as const, object: object as Record<string, unknown> })

describe('redirects and HSTS', () => {
  it('a route that redirects goes to the redirect backend, and its Service is not rendered for it', () => {
    const { model, files } = fullRebuild([web({ 'hapedge.io/permanent-redirect': 'https://example.com/' }), service('web'), endpointSlice('web', ['10.0.0.1'])])
    expect(model.hosts.get(HOST)!.routes).toMatchObject([{ backendName: REDIRECT_BACKEND, redirect: { code: 301, url: 'https://example.com/' } }])
    expect(model.backends.size).toBe(0)
    expect(files.get(FILES.prefixMap)).toBe(`${HOST}/ ${REDIRECT_BACKEND}\n`)
    expect(files.get(FILES.locationPrefixMap)).toBe(`${HOST}/ 301|https://example.com/\n`)
  })

  it('keeps a target with characters a map line could take for syntax on one line, and refuses one with whitespace or a variable', () => {
    const url = 'https://example.com/a;b\\c#frag?x="1"'
    const { files } = fullRebuild([web({ 'hapedge.io/temporal-redirect': url }, { path: '/x' })])
    expect(files.get(FILES.locationExactMap)).toBe(`${HOST}/x 302|${url}\n`)
    for (const bad of ['https://example.com/a b', 'https://example.com/\nx', 'https://example.com$request_uri', 'ftp://example.com/']) {
      const refused = fullRebuild([web({ 'nginx.ingress.kubernetes.io/permanent-redirect': bad })])
      expect(refused.files.get(FILES.locationPrefixMap), bad).toBe('')
      expect(refused.model.warnings, bad).toMatchObject([{ annotation: 'nginx.ingress.kubernetes.io/permanent-redirect' }])
    }
  })

  it('the certificate’s Ingress decides HSTS and the HTTPS redirect’s code; the oldest Ingress asking decides app-root', () => {
    const { model, files } = fullRebuild([
      web({ 'hapedge.io/app-root': '/old', 'hapedge.io/hsts': 'true' }, { name: 'older', createdAt: '2023-01-01T00:00:00Z', path: '/a' }),
      web({ 'hapedge.io/app-root': '/new', 'hapedge.io/hsts': 'true', 'hapedge.io/hsts-max-age': '60', 'hapedge.io/ssl-redirect-code': '301' }, { tls: true }),
      shopSecret,
    ])
    expect(model.hosts.get(HOST)).toMatchObject({ redirectCode: 301, appRoot: '/old', hsts: { maxAge: 60, includeSubDomains: false, preload: false } })
    expect(files.get(FILES.hstsMap)).toBe(`${HOST} max-age=60\n`)
    expect(files.get(FILES.redirectMap)).toBe(`${HOST} 301\n`)
    expect(files.get(FILES.appRootMap)).toBe(`${HOST}/ /old\n`)
  })

  it('from-to-www answers for the other name, never for a wildcard, the rules without host, or a www.www. name (whose other name another host has)', () => {
    expect(['shop.example.com', 'www.shop.example.com', 'www.www.shop.example.com', '*.example.com', ''].map(otherWwwName)).toEqual([
      'www.shop.example.com',
      'shop.example.com',
      undefined,
      undefined,
      undefined,
    ])
    const { files } = fullRebuild([web({ 'nginx.ingress.kubernetes.io/from-to-www-redirect': 'true' })])
    expect(files.get(FILES.wwwMap)).toBe(`www.${HOST} ${HOST}\n`)
  })

  it('tells what is not done as written: permanent-redirect beside temporal-redirect, from-to-www for a host without another name', () => {
    const both = fullRebuild([
      web({
        'nginx.ingress.kubernetes.io/temporal-redirect': 'https://example.com/t',
        'nginx.ingress.kubernetes.io/permanent-redirect': 'https://example.com/p',
        'nginx.ingress.kubernetes.io/permanent-redirect-code': '308',
      }),
    ])
    expect(both.model.warnings.map(({ annotation, reason }) => [annotation, reason])).toEqual([
      ['nginx.ingress.kubernetes.io/permanent-redirect', 'temporal-redirect takes precedence, as in ingress-nginx; ignored'],
      ['nginx.ingress.kubernetes.io/permanent-redirect-code', 'temporal-redirect takes precedence, as in ingress-nginx; ignored'],
    ])
    const wildcard = fullRebuild([
      ingress({
        name: 'wild',
        annotations: { 'hapedge.io/from-to-www-redirect': 'true' },
        rules: [{ host: '*.example.com', paths: [{ service: 'web' }] }, { paths: [{ service: 'web' }] }, { host: HOST, paths: [{ service: 'web' }] }],
      }),
    ])
    expect(wildcard.model.warnings).toEqual([
      {
        object: 'Ingress default/wild',
        annotation: 'hapedge.io/from-to-www-redirect',
        reason: 'no other name to redirect for "*.example.com", the rules without host (a wildcard, or a name beginning "www.www."); ignored there',
      },
    ])
    expect(wildcard.files.get(FILES.wwwMap)).toBe(`www.${HOST} ${HOST}\n`)
  })

  it('force-ssl-redirect on the rules without host is keyed `/`, which no host is, so every map line keeps a key', () => {
    const { files } = fullRebuild([
      ingress({ name: 'any', annotations: { 'hapedge.io/force-ssl-redirect': 'true' }, rules: [{ paths: [{ service: 'web' }] }] }),
    ])
    expect(files.get(FILES.redirectMap)).toBe('/ 308\n')
  })

  it('an Ingress refused for want of its Secret of users decides no redirect of its host until the Secret comes, and then as a full rebuild does', () => {
    const guarded = web({
      'hapedge.io/app-root': '/admin',
      'hapedge.io/from-to-www-redirect': 'true',
      'hapedge.io/force-ssl-redirect': 'true',
      'nginx.ingress.kubernetes.io/auth-type': 'basic',
      'nginx.ingress.kubernetes.io/auth-secret': 'users',
    })
    const users = authSecret('users', { auth: 'alice:$2b$05$abcdefghijklmnopqrstuuOQiyCxlgf/oeuTqixKmWdcYUh4Hjl0a\n' })
    const cluster = new LiveCluster({})
    cluster.apply([added(guarded)])
    expect(cluster.files().get(FILES.appRootMap)).toBe('')
    expect(cluster.files().get(FILES.wwwMap)).toBe('')
    expect(cluster.files().get(FILES.redirectMap)).toBe('')
    cluster.apply([added(users)])
    const rebuilt = fullRebuild([guarded, users]).files
    expect(cluster.files().get(FILES.appRootMap)).toBe(`${HOST}/ /admin\n`)
    for (const map of [FILES.appRootMap, FILES.wwwMap, FILES.redirectMap]) expect(cluster.files().get(map), map).toBe(rebuilt.get(map))
  })

  it('a changed target, code, max-age or app-root is a map edit, without a reload', () => {
    const cluster = new LiveCluster({})
    const annotations = (target: string, maxAge: string) => ({
      'hapedge.io/permanent-redirect': target,
      'hapedge.io/hsts': 'true',
      'hapedge.io/hsts-max-age': maxAge,
    })
    cluster.apply([added(web(annotations('https://example.com/1', '60'), { tls: true })), added(shopSecret)])
    const changed = cluster.apply([
      modified(web({ ...annotations('https://example.com/2', '120'), 'hapedge.io/permanent-redirect-code': '308' }, { tls: true })),
    ])
    expect(changed.plan).toMatchObject({ reload: false, reasons: [] })
    expect(changed.plan.maps).toEqual([
      { map: FILES.hstsMap, key: HOST, value: 'max-age=120' },
      { map: FILES.locationPrefixMap, key: `${HOST}/`, value: '308|https://example.com/2' },
    ])
  })
})
