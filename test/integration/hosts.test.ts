import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ingress, ingressClass } from '../support/objects.ts'
import { answeredBy, serveCluster, type ServedCluster } from './serve-cluster.ts'
import { startServices, type ServiceBackends } from './service-backends.ts'

/**
 * Host matching, default backends and IngressClass selection through the real HAProxy.
 * Hostname wildcards as https://kubernetes.io/docs/concepts/services-networking/ingress/#hostname-wildcards
 * documents them: `*.foo.com` covers exactly one DNS label.
 */

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'] as const

const prefixAll = (service: string) => [{ path: '/', pathType: 'Prefix' as const, service }]

let services: ServiceBackends

beforeAll(async () => {
  services = await startServices([
    'wildcard',
    'exact-host',
    'hostless',
    'known',
    'default-backend',
    'other-class',
    'unclassed',
    'legacy',
    'legacy-other',
    'classed-b',
    'unclassed-b',
  ])
})

afterAll(async () => {
  await services?.close()
})

describe('a cluster whose default IngressClass is ours, with a default backend', () => {
  let cluster: ServedCluster

  beforeAll(async () => {
    cluster = await serveCluster([
      ...services.objects,
      ingressClass('hapedge', true),
      ingress({ name: 'wildcard', rules: [{ host: '*.foo.com', paths: prefixAll('wildcard') }] }),
      ingress({ name: 'exact', rules: [{ host: 'exact.foo.com', paths: prefixAll('exact-host') }] }),
      ingress({ name: 'catch-all', rules: [{ paths: prefixAll('hostless') }] }),
      ingress({ name: 'known', rules: [{ host: 'known.test', paths: [{ path: '/only', pathType: 'Exact', service: 'known' }] }] }),
      ingress({ name: 'fallback', defaultBackend: { service: 'default-backend' } }),
      ingress({
        name: 'other-class',
        className: 'nginx',
        rules: [{ host: 'other.test', paths: prefixAll('other-class') }, { paths: [{ path: '/claimed', pathType: 'Exact', service: 'other-class' }] }],
        defaultBackend: { service: 'other-class' },
        createdAt: '2000-01-01T00:00:00Z',
      }),
      ingress({ name: 'unclassed', className: null, rules: [{ host: 'unclassed.test', paths: prefixAll('unclassed') }] }),
      ingress({ name: 'legacy', className: null, classAnnotation: 'hapedge', rules: [{ host: 'legacy.test', paths: prefixAll('legacy') }] }),
      ingress({ name: 'legacy-other', className: null, classAnnotation: 'nginx', rules: [{ host: 'legacy-other.test', paths: prefixAll('legacy-other') }] }),
    ])
  })

  afterAll(async () => {
    await cluster?.stop()
  })

  it('renders without rejections', () => {
    expect(cluster.model.rejections).toEqual([])
  })

  describe('wildcard hosts', () => {
    it('*.foo.com matches bar.foo.com (shared suffix)', async () => {
      expect(answeredBy(await cluster.get('bar.foo.com', '/x'))).toBe('wildcard')
      expect(answeredBy(await cluster.get('BAR.Foo.COM:8080', '/x'))).toBe('wildcard')
    })

    it('*.foo.com does not match foo.com (the wildcard covers one label)', async () => {
      expect(answeredBy(await cluster.get('foo.com', '/x'))).toBe('hostless')
    })

    it('*.foo.com does not match baz.bar.foo.com (only a single DNS label)', async () => {
      expect(answeredBy(await cluster.get('baz.bar.foo.com', '/x'))).toBe('hostless')
    })

    it.each(['.foo.com', 'evil/.foo.com', 'a b.foo.com'])('*.foo.com does not match %j, whose first label is not a DNS label', async (host) => {
      // HAPEDGE BUG: the wildcard lookup only checks what follows the first dot (`field(2,.,0)`), so any first
      // "label" — empty, or with `/` or a space — is served as if it were one DNS label of *.foo.com.
      expect(answeredBy(await cluster.get(host, '/x'))).not.toBe('wildcard')
    })

    it('an exact host beats the wildcard that also covers it', async () => {
      expect(answeredBy(await cluster.get('exact.foo.com', '/x'))).toBe('exact-host')
      expect(answeredBy(await cluster.get('other.foo.com', '/x'))).toBe('wildcard')
    })
  })

  describe('rules without a host', () => {
    it.each(['unknown.test', 'localhost', '127.0.0.1', 'a.b.c.d.example'])('serve the unknown host %s', async (host) => {
      expect(answeredBy(await cluster.get(host, '/anything'))).toBe('hostless')
    })

    it('do not catch a known host whose paths do not match: that goes to the default backend', async () => {
      expect(answeredBy(await cluster.get('known.test', '/only'))).toBe('known')
      expect(answeredBy(await cluster.get('known.test', '/other'))).toBe('default-backend')
      expect(answeredBy(await cluster.get('known.test', '/only/'))).toBe('default-backend')
    })
  })

  it.each(METHODS)('spec.defaultBackend answers an unmatched %s', async (method) => {
    const response = await cluster.get('known.test', '/unmatched', { method, ...(method === 'GET' || method === 'HEAD' ? {} : { body: 'payload' }) })
    expect(answeredBy(response)).toBe('default-backend')
    if (method !== 'HEAD') expect(response.json()).toMatchObject({ method, path: '/unmatched', host: 'known.test' })
  })

  describe('IngressClass selection', () => {
    it('does not serve an Ingress of another class (host, host-less path or default backend)', async () => {
      expect(answeredBy(await cluster.get('other.test', '/'))).toBe('hostless')
      expect(answeredBy(await cluster.get('unknown.test', '/claimed'))).toBe('hostless')
      // Older than `fallback`, so it would win the default backend if it were served.
      expect(answeredBy(await cluster.get('known.test', '/nope'))).toBe('default-backend')
      expect(services.backend('other-class').requests).toBe(0)
    })

    it('serves an Ingress without class because the default IngressClass is ours', async () => {
      expect(answeredBy(await cluster.get('unclassed.test', '/'))).toBe('unclassed')
    })

    it('honours the legacy kubernetes.io/ingress.class annotation', async () => {
      expect(answeredBy(await cluster.get('legacy.test', '/'))).toBe('legacy')
      expect(answeredBy(await cluster.get('legacy-other.test', '/'))).toBe('hostless')
      expect(services.backend('legacy-other').requests).toBe(0)
    })
  })
})

describe('a cluster whose default IngressClass is another one, without a default backend', () => {
  let cluster: ServedCluster

  beforeAll(async () => {
    cluster = await serveCluster([
      ...services.objects,
      ingressClass('hapedge', false),
      ingressClass('nginx', true),
      ingress({ name: 'classed', rules: [{ host: 'classed.test', paths: [{ path: '/x', pathType: 'Exact', service: 'classed-b' }] }] }),
      ingress({
        name: 'unclassed',
        className: null,
        rules: [{ host: 'unclassed.test', paths: prefixAll('unclassed-b') }, { paths: prefixAll('unclassed-b') }],
      }),
    ])
  })

  afterAll(async () => {
    await cluster?.stop()
  })

  it('serves the Ingress that names our class', async () => {
    expect(answeredBy(await cluster.get('classed.test', '/x'))).toBe('classed-b')
  })

  it('does not serve an Ingress without class', async () => {
    expect(answeredBy(await cluster.get('unclassed.test', '/'))).toBe('HTTP 404')
    expect(services.backend('unclassed-b').requests).toBe(0)
  })

  it.each(METHODS)('answers an unmatched %s with 404 from HAProxy itself', async (method) => {
    for (const [host, path] of [
      ['classed.test', '/y'],
      ['unknown.test', '/'],
      ['classed.test', '/x/'],
    ] as const) {
      const response = await cluster.get(host, path, { method })
      expect(response.status, `${method} ${host}${path}`).toBe(404)
      expect(response.headers['x-backend'], 'no backend answered').toBeUndefined()
    }
  })
})
