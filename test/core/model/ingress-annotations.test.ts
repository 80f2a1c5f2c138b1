import { describe, expect, it } from 'vitest'
import { readObject } from '../../../core/kube/objects.ts'
import type { Ingress } from '../../../core/kube/ingress.ts'
import { REFUSED_BACKEND } from '../../../core/model/backend-ref.ts'
import { ingressAnnotations } from '../../../core/model/ingress-annotations.ts'
import { LiveCluster } from '../../../core/incremental/live-cluster.ts'
import { FILES } from '../../../core/render/files.ts'
import { fullRebuild } from '../../../core/render/full-rebuild.ts'
import { added, app, modified } from '../../support/contracts/cluster-apps.ts'
import { fixtureCertificate } from '../../support/fixtures.ts'
import { ingress, tlsSecret } from '../../support/objects.ts'

const shop = fixtureCertificate('shop.example.com')
const shopSecret = tlsSecret('shop-tls', shop.certPem, shop.keyPem)

/** An Ingress with these annotations, read as the engine reads it. */
function judged(annotations: Record<string, string>) {
  const read = readObject(ingress({ name: 'web', annotations, rules: [{ host: 'shop.example.com', paths: [{ service: 'web' }] }] }))
  if (read.status !== 'object') throw new Error('the Ingress did not read')
  return ingressAnnotations(read.object as Ingress)
}

describe('ingressAnnotations', () => {
  it.each([
    'hapedge.io/ssl-redirect',
    'nginx.ingress.kubernetes.io/ssl-redirect',
    'haproxy-ingress.github.io/ssl-redirect',
    'haproxy.org/ssl-redirect',
    'ingress.kubernetes.io/ssl-redirect',
    'nginx.org/ssl-redirect',
  ])('honours %s without a warning', (key) => {
    expect(judged({ [key]: 'false' })).toEqual({ rendered: { 'ssl-redirect': false }, warnings: [], refusals: [] })
  })

  it('warns of what the model reads but hapedge does not render yet, of keys it does not know, and of a spelling that disagrees', () => {
    const { warnings, refusal } = judged({
      'nginx.ingress.kubernetes.io/proxy-buffering': 'on',
      'hapedge.io/rewrite': '/',
      'nginx.ingress.kubernetes.io/configuration-snippet': 'more_set_headers "X: y";\nexpires 1h;',
      'hapedge.io/ssl-redirect': 'true',
      'nginx.ingress.kubernetes.io/ssl-redirect': 'false',
      'cert-manager.io/cluster-issuer': 'letsencrypt',
    })
    expect(refusal).toBeUndefined()
    expect(warnings.map(({ annotation, reason }) => [annotation, reason])).toEqual([
      ['hapedge.io/rewrite', 'not a hapedge annotation'],
      [
        'nginx.ingress.kubernetes.io/configuration-snippet',
        expect.stringMatching(/^a configuration snippet refused whole, never passed on to HAProxy: directive 2 \(line 2, "expires"\)/),
      ],
      ['nginx.ingress.kubernetes.io/proxy-buffering', 'not supported by hapedge'],
      ['nginx.ingress.kubernetes.io/ssl-redirect', expect.stringContaining('disagrees with hapedge.io/ssl-redirect')],
    ])
    expect(warnings.every((warning) => warning.object === 'Ingress default/web')).toBe(true)
  })

  it.each([
    ['basic auth without a Secret', { 'nginx.ingress.kubernetes.io/auth-type': 'basic' }],
    ['basic auth naming no readable Secret', { 'nginx.ingress.kubernetes.io/auth-type': 'basic', 'nginx.ingress.kubernetes.io/auth-secret': 'a/b/c' }],
    ['an unreadable source allow-list (fail closed)', { 'haproxy.org/allow-list': '10.0.0.0/33' }],
    ['an unreadable source deny-list (fail closed)', { 'nginx.ingress.kubernetes.io/denylist-source-range': 'patterns/ips' }],
    ['a web application firewall', { 'nginx.ingress.kubernetes.io/enable-modsecurity': 'true' }],
    ['a snippet that restricts access', { 'nginx.ingress.kubernetes.io/server-snippet': 'deny all;' }],
  ])('refuses %s, naming each annotation once, in the refusal and not as a warning', (_, annotations) => {
    const { refusal, warnings } = judged(annotations)
    for (const key of Object.keys(annotations)) expect(refusal).toContain(`metadata.annotations["${key}"]`)
    expect(refusal).toMatch(/its routes answer 503$/)
    expect(warnings).toEqual([])
  })
})

describe('annotations in the model', () => {
  it('lets the Ingress whose certificate a host serves decide its redirect, from any spelling', () => {
    const tls = { hosts: ['shop.example.com'], secretName: 'shop-tls' }
    const owner = (annotations: Record<string, string>) =>
      ingress({ name: 'owner', createdAt: '2020-01-01T00:00:00Z', annotations, rules: [{ host: 'shop.example.com', paths: [{ service: 'web' }] }], tls: [tls] })
    const other = ingress({
      name: 'other',
      annotations: { 'hapedge.io/ssl-redirect': 'true' },
      rules: [{ host: 'shop.example.com', paths: [{ path: '/b', service: 'web' }] }],
    })
    const redirect = (annotations: Record<string, string>) =>
      fullRebuild([owner(annotations), other, shopSecret]).model.hosts.get('shop.example.com')!.redirectToHttps
    expect(redirect({})).toBe(true)
    expect(redirect({ 'ingress.kubernetes.io/ssl-redirect': 'false' })).toBe(false)
    expect(redirect({ 'nginx.ingress.kubernetes.io/ssl-redirect': 'False' })).toBe(false)
  })

  it("claims a refused Ingress's routes and its default backend for the refused backend, using none of its Services", () => {
    const { model } = fullRebuild([
      ingress({
        name: 'guarded',
        annotations: { 'nginx.ingress.kubernetes.io/enable-modsecurity': 'true' },
        rules: [{ host: 'shop.example.com', paths: [{ path: '/admin', service: 'admin' }] }],
        defaultBackend: { service: 'admin' },
      }),
      ingress({ name: 'site', createdAt: '2025-01-01T00:00:00Z', rules: [{ host: 'shop.example.com', paths: [{ service: 'site' }] }] }),
    ])
    const routes = model.hosts.get('shop.example.com')!.routes
    expect(routes.map((route) => [route.path, route.backendName, route.refused])).toEqual([
      ['/', 'default_site_80', undefined],
      ['/admin', REFUSED_BACKEND, true],
    ])
    expect(model.defaultBackend).toBe(REFUSED_BACKEND)
    expect([...model.backends.keys()]).toEqual(['default_site_80'])
    expect(model.rejections).toEqual([{ object: 'Ingress default/guarded', reason: expect.stringContaining('enable-modsecurity') }])
  })
})

describe('annotations in a change', () => {
  it('refuses an Ingress that gains access control at runtime (a map edit, no reload) and serves it again when it loses it', () => {
    const cluster = new LiveCluster()
    const [web, ...rest] = app(1, ['/', '/admin'])
    cluster.apply([web, ...rest].map(added))
    const guarded = {
      ...(web as object),
      metadata: { ...(web as { metadata: object }).metadata, annotations: { 'nginx.ingress.kubernetes.io/enable-modsecurity': 'true' } },
    }
    const refused = cluster.apply([modified(guarded)])
    expect(refused.plan).toMatchObject({ reload: false })
    expect(refused.plan.maps).toContainEqual({ map: FILES.exactMap, key: 'app-1.example.com/admin', value: REFUSED_BACKEND })
    // No route uses the Service's backend any more: it leaves the files, as an unused backend does.
    expect(cluster.files().get(FILES.backends)).not.toContain('backend default_app-1_80')
    const served = cluster.apply([modified(web)])
    expect(served.plan.maps).toContainEqual({ map: FILES.exactMap, key: 'app-1.example.com/admin', value: 'default_app-1_80' })
    expect(served.plan.reasons).toEqual(['backend default_app-1_80 is new'])
  })
})
