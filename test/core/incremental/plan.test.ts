import { beforeEach, describe, expect, it } from 'vitest'
import { fullRebuild } from '../../../core/render/full-rebuild.ts'
import { LiveCluster } from '../../../core/incremental/live-cluster.ts'
import { SnapshotReader } from '../../../core/reading/snapshot-reader.ts'
import { FILES } from '../../../core/render/files.ts'
import { fixtureCertificate } from '../../support/fixtures.ts'
import { configMap, endpointSlice, ingress, service, tlsSecret } from '../../support/objects.ts'

const shop = fixtureCertificate('shop.example.com')
const apps = fixtureCertificate('apps.example.com')
const shopIngress = (paths = [{ path: '/', service: 'web' }]) =>
  ingress({ name: 'shop', tls: [{ hosts: ['shop.example.com'], secretName: 'shop-tls' }], rules: [{ host: 'shop.example.com', paths }] })
const start = () => [
  shopIngress(),
  service('web', [{ port: 80 }]),
  endpointSlice('web', ['10.0.0.1', '10.0.0.2']),
  tlsSecret('shop-tls', shop.certPem, shop.keyPem),
]

const added = (object: unknown) => ({ type: 'ADDED' as const, object: object as Record<string, unknown> })
const modified = (object: unknown) => ({ type: 'MODIFIED' as const, object: object as Record<string, unknown> })
const deleted = (object: unknown) => ({ type: 'DELETED' as const, object: object as Record<string, unknown> })

describe('the plan of a generation', () => {
  let cluster: LiveCluster
  beforeEach(() => {
    cluster = new LiveCluster()
    cluster.apply(start().map(added))
  })

  it('re-sent objects change nothing and need nothing', () => {
    const result = cluster.apply(start().map(modified))
    expect(result.files.size).toBe(0)
    expect(result.plan).toEqual({ reload: false, reasons: [], maps: [], servers: [], certificates: [] })
  })

  it('a status-only update or a resourceVersion bump changes nothing', () => {
    const bumped = start().map((object) => ({
      ...object,
      metadata: { ...object.metadata, resourceVersion: '999', generation: 7, managedFields: [{ manager: 'kubectl' }] },
      status: { loadBalancer: { ingress: [{ ip: '192.0.2.1' }] } },
    }))
    const result = cluster.apply(bumped.map(modified))
    expect(result.files.size).toBe(0)
    expect(result.plan.maps).toEqual([])
  })

  it('applies an endpoint change to server slots at runtime, touching only the backends file', () => {
    const result = cluster.apply([modified(endpointSlice('web', ['10.0.0.1', { address: '10.0.0.2', ready: false }]))])
    expect([...result.files]).toEqual([FILES.backends])
    expect(result.plan.reload).toBe(false)
    expect(result.plan.servers).toEqual([{ op: 'set', backend: 'default_web_80', server: 's2', address: '127.0.0.1:1', state: 'maint' }])
  })

  it('grows and shrinks a backend beyond its slots at runtime, and the files carry the same slots', () => {
    const grown = cluster.apply([modified(endpointSlice('web', ['10.0.0.1', '10.0.0.2', '10.0.0.3']))])
    expect(grown.plan).toMatchObject({ reload: false, reasons: [] })
    expect(grown.plan.servers).toEqual([
      { op: 'add', backend: 'default_web_80', server: 's3', address: '10.0.0.3:8080', state: 'ready' },
      { op: 'add', backend: 'default_web_80', server: 's4', address: '127.0.0.1:1', state: 'maint' },
    ])
    const backends = cluster.files().get(FILES.backends)!
    expect(backends).toContain('    server s3 10.0.0.3:8080\n    server s4 127.0.0.1:1 disabled\n')
    const shrunk = cluster.apply([modified(endpointSlice('web', ['10.0.0.2']))])
    expect(shrunk.plan.servers).toEqual([
      { op: 'set', backend: 'default_web_80', server: 's1', address: '10.0.0.2:8080', state: 'ready' },
      { op: 'set', backend: 'default_web_80', server: 's2', address: '127.0.0.1:1', state: 'maint' },
      { op: 'del', backend: 'default_web_80', server: 's3' },
      { op: 'del', backend: 'default_web_80', server: 's4' },
    ])
  })

  it('applies a path added to an existing backend through map entries alone', () => {
    const result = cluster.apply([
      modified(
        shopIngress([
          { path: '/', service: 'web' },
          { path: '/docs', service: 'web' },
        ]),
      ),
    ])
    expect(result.plan.reload).toBe(false)
    expect(result.plan.maps).toEqual([
      { map: FILES.exactMap, key: 'shop.example.com/docs', value: 'default_web_80' },
      { map: FILES.prefixMap, key: 'shop.example.com/docs/', value: 'default_web_80' },
    ])
  })

  it('needs a reload for a new backend, and says why', () => {
    const result = cluster.apply([
      modified(
        shopIngress([
          { path: '/', service: 'web' },
          { path: '/api', service: 'api' },
        ]),
      ),
    ])
    expect(result.plan).toMatchObject({ reload: true, reasons: ['backend default_api_80 is new'] })
  })

  it('rotates a certificate in place at runtime', () => {
    const result = cluster.apply([modified(tlsSecret('shop-tls', apps.certPem, apps.keyPem))])
    expect([...result.files]).toEqual(['tls/default_shop-tls.pem'])
    expect(result.plan).toMatchObject({ reload: false, certificates: ['tls/default_shop-tls.pem'] })
  })

  it('follows the ConfigMap ssl-redirect switch for every TLS host', () => {
    const off = cluster.apply([added(configMap({ 'ssl-redirect': 'false' }))])
    expect(off.plan.maps).toEqual([{ map: FILES.redirectMap, key: 'shop.example.com' }])
    const on = cluster.apply([deleted(configMap({}))])
    expect(on.plan.maps).toEqual([{ map: FILES.redirectMap, key: 'shop.example.com', value: '308' }])
  })

  it('after deleting everything, equals the full rebuild of nothing', () => {
    cluster.apply(start().map(deleted))
    const empty = fullRebuild([])
    expect(new SnapshotReader(cluster.current.snapshot).rejections()).toEqual([])
    expect(cluster.files()).toEqual(empty.files)
  })
})
