import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ingress } from '../support/objects.ts'
import { answeredBy, serveCluster, type ServedCluster } from './serve-cluster.ts'
import { startServices, type ServiceBackends } from './service-backends.ts'

/** upstream-vhost through the real HAProxy: the Service of the routes that ask receives that Host; other routes, and routing itself, keep the client's. */

describe('upstream-vhost', () => {
  let services: ServiceBackends
  let cluster: ServedCluster

  beforeAll(async () => {
    services = await startServices(['site'])
    cluster = await serveCluster([
      ...services.objects,
      ingress({
        name: 'internal',
        annotations: { 'nginx.ingress.kubernetes.io/upstream-vhost': 'site.default.svc' },
        rules: [{ host: 'shop.test', paths: [{ path: '/', service: 'site' }] }],
      }),
      ingress({ name: 'plain', rules: [{ host: 'shop.test', paths: [{ path: '/plain', service: 'site' }] }] }),
    ])
  })

  afterAll(async () => {
    await cluster?.stop()
    await services?.close()
  })

  it('sends the route’s Service the Host it names, after routing on the client’s', async () => {
    const answer = await cluster.get('shop.test', '/cart')
    expect(answeredBy(answer)).toBe('site')
    expect(JSON.parse(answer.body).host).toBe('site.default.svc')
  })

  it('leaves the Host of another Ingress’s longer path on the same host as the client sent it', async () => {
    expect(JSON.parse((await cluster.get('shop.test', '/plain/x')).body).host).toBe('shop.test')
  })
})
