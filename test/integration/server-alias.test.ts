import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ingress } from '../support/objects.ts'
import { answeredBy, serveCluster, type ServedCluster } from './serve-cluster.ts'
import { startServices, type ServiceBackends } from './service-backends.ts'

/**
 * server-alias through the real HAProxy: an alias is served exactly as the Ingress's host (its
 * paths and another Ingress's paths on that host), a name another Ingress's rules serve stays
 * theirs, and of two Ingresses naming one alias the older has it; each refused claim is a
 * rejection naming both Ingresses.
 */

const OLDER = '2024-01-01T00:00:00Z'
const NEWER = '2024-06-01T00:00:00Z'

describe('server-alias', () => {
  let services: ServiceBackends
  let cluster: ServedCluster

  beforeAll(async () => {
    services = await startServices(['shop', 'api', 'other', 'blog'])
    cluster = await serveCluster([
      ...services.objects,
      ingress({
        name: 'shop',
        createdAt: OLDER,
        annotations: { 'nginx.ingress.kubernetes.io/server-alias': 'www.shop.test, shop.example, taken.test, *.wild.test' },
        rules: [{ host: 'shop.test', paths: [{ path: '/', pathType: 'Prefix', service: 'shop' }] }],
      }),
      ingress({ name: 'api', rules: [{ host: 'shop.test', paths: [{ path: '/api', pathType: 'Prefix', service: 'api' }] }] }),
      ingress({ name: 'other', rules: [{ host: 'taken.test', paths: [{ path: '/', pathType: 'Prefix', service: 'other' }] }] }),
      ingress({
        name: 'blog',
        createdAt: NEWER,
        annotations: { 'haproxy-ingress.github.io/server-alias': 'www.shop.test,blog.example' },
        rules: [{ host: 'blog.test', paths: [{ path: '/', pathType: 'Prefix', service: 'blog' }] }],
      }),
    ])
  })

  afterAll(async () => {
    await cluster?.stop()
    await services?.close()
  })

  it('serves an alias exactly as the Ingress’s host: its paths and another Ingress’s paths on that host; any case of the Host header, and wildcards', async () => {
    expect(answeredBy(await cluster.get('www.shop.test', '/cart'))).toBe('shop')
    expect(answeredBy(await cluster.get('www.shop.test', '/api/items'))).toBe('api')
    expect(answeredBy(await cluster.get('SHOP.example:8080', '/'))).toBe('shop')
    expect(answeredBy(await cluster.get('eu.wild.test', '/'))).toBe('shop')
    expect(answeredBy(await cluster.get('blog.example', '/'))).toBe('blog')
  })

  it('never takes a name another Ingress’s rules serve, and rejects the claim naming both', async () => {
    expect(answeredBy(await cluster.get('taken.test', '/'))).toBe('other')
    expect(cluster.model.rejections).toContainEqual({
      object: 'Ingress default/shop',
      reason: 'server-alias "taken.test" is a host of Ingress default/other; not served as an alias',
    })
  })

  it('gives an alias two Ingresses name to the older, and rejects the newer’s claim naming both', async () => {
    expect(answeredBy(await cluster.get('www.shop.test', '/'))).toBe('shop')
    expect(cluster.model.rejections).toContainEqual({
      object: 'Ingress default/blog',
      reason: 'server-alias "www.shop.test" is already an alias of Ingress default/shop (served as "shop.test"); not served as this Ingress\'s',
    })
  })

  it('serves no name that is nobody’s alias', async () => {
    expect(answeredBy(await cluster.get('nobody.test', '/'))).toBe('HTTP 404')
  })

  it('honours server-alias without warnings', () => {
    expect(cluster.model.warnings).toEqual([])
  })
})
