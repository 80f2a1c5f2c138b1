import { describe, expect, it } from 'vitest'
import { fullRebuild } from '../../../core/render/full-rebuild.ts'
import { auditEventList, watchEventsFromAudit } from '../../../core/ingest/audit-events.ts'
import { LiveCluster } from '../../../core/incremental/live-cluster.ts'
import { fixtureCertificate } from '../../support/fixtures.ts'
import { configMap, endpointSlice, ingress, ingressClass, service, tlsSecret } from '../../support/objects.ts'
import { auditEvent, deletedStatus, eventList, served } from '../../support/audit-batches.ts'

const { certPem, keyPem } = fixtureCertificate('shop.example.com')
const sorted = (files: ReadonlyMap<string, string>) => [...files].sort(([a], [b]) => (a < b ? -1 : 1))

const shop = (paths: { path: string; service: string }[]) =>
  ingress({
    name: 'shop',
    namespace: 'shop',
    tls: [{ hosts: ['shop.example.com'], secretName: 'shop-tls' }],
    rules: [{ host: 'shop.example.com', paths: paths.map((entry) => ({ ...entry, port: 'http' })) }],
  })

const objects = {
  class: served(ingressClass('hapedge', true), '10'),
  settings: served(configMap({ 'http-bind': '0.0.0.0:80' }), '11'),
  web: served(service('web', [{ port: 80, name: 'http' }], 'shop'), '12'),
  webSlice: served(endpointSlice('web', ['10.0.0.1', '10.0.0.2'], [{ port: 8080, name: 'http' }], { namespace: 'shop' }), '13'),
  api: served(service('api', [{ port: 80, name: 'http' }], 'shop'), '14'),
  apiSlice: served(endpointSlice('api', ['10.0.1.1'], [{ port: 9090, name: 'http' }], { namespace: 'shop', name: 'api-xyz' }), '15'),
  tls: served(tlsSecret('shop-tls', certPem, keyPem, 'shop'), '16'),
  ingressV1: served(
    shop([
      { path: '/', service: 'web' },
      { path: '/api', service: 'api' },
    ]),
    '17',
  ),
  ingressV2: served(shop([{ path: '/', service: 'web' }]), '30'),
  webSliceV2: served(endpointSlice('web', ['10.0.0.2', '10.0.0.3'], [{ port: 8080, name: 'http' }], { namespace: 'shop' }), '31'),
}

type Served = (typeof objects)[keyof typeof objects]

const RESOURCES: Record<string, { resource: string; group: string }> = {
  IngressClass: { resource: 'ingressclasses', group: 'networking.k8s.io' },
  ConfigMap: { resource: 'configmaps', group: '' },
  Service: { resource: 'services', group: '' },
  EndpointSlice: { resource: 'endpointslices', group: 'discovery.k8s.io' },
  Secret: { resource: 'secrets', group: '' },
  Ingress: { resource: 'ingresses', group: 'networking.k8s.io' },
}

function written(verb: 'create' | 'update' | 'patch', object: Served, code?: number) {
  const { metadata } = object
  const namespace = 'namespace' in metadata ? metadata.namespace : undefined
  return auditEvent({
    verb,
    ...RESOURCES[object.kind]!,
    namespace,
    name: metadata.name,
    requestObject: object,
    responseObject: object,
    ...(code ? { code, responseObject: undefined } : {}),
  })
}

function deleted(object: Served) {
  const { resource, group } = RESOURCES[object.kind]!
  const { name, uid } = object.metadata
  const namespace = 'namespace' in object.metadata ? object.metadata.namespace : undefined
  return auditEvent({ verb: 'delete', resource, group, namespace, name, responseObject: deletedStatus(group, resource, name, uid) })
}

describe('audit batches through the engine', () => {
  it('leave the same files as a full rebuild of the objects they end with', () => {
    const opaque = served(
      { apiVersion: 'v1', kind: 'Secret', type: 'Opaque', metadata: { name: 'db', namespace: 'shop' }, data: { password: 'cGFzcw==' } },
      '18',
    )
    const batches = [
      eventList(
        ...[objects.class, objects.settings, objects.web, objects.webSlice, objects.api, objects.apiSlice, objects.tls, objects.ingressV1].map((object) =>
          written('create', object),
        ),
        written('create', opaque),
      ),
      // Out of order, repeated and refused: the newer Ingress and EndpointSlice must win.
      eventList(
        written('update', objects.ingressV2),
        written('patch', objects.webSliceV2),
        written('update', objects.ingressV1),
        written('create', objects.web, 409),
        written('patch', objects.webSliceV2),
      ),
      eventList(deleted(objects.apiSlice), deleted(objects.api)),
    ]
    const cluster = new LiveCluster()
    for (const batch of batches) {
      const { events, problems } = watchEventsFromAudit(auditEventList.parse(batch))
      expect(problems).toEqual([])
      cluster.apply(events.map(({ event }) => event))
    }
    const reference = fullRebuild([objects.class, objects.settings, objects.web, objects.webSliceV2, objects.tls, objects.ingressV2])
    expect(sorted(cluster.files())).toEqual(sorted(reference.files))
    const files = cluster.files()
    expect(files.has('tls/shop_shop-tls.pem')).toBe(true)
    expect([...files.values()].join('\n')).toContain('10.0.0.3')
  })

  it('apply batch after batch in the order they arrive: a far-future version locks nothing, and versions may go back (an etcd restore)', () => {
    const future = served(
      shop([
        { path: '/', service: 'web' },
        { path: '/api', service: 'api' },
      ]),
      '99999999999999999999',
    )
    const cluster = new LiveCluster()
    const send = (...items: unknown[]) => cluster.apply(watchEventsFromAudit(auditEventList.parse(eventList(...items))).events.map(({ event }) => event))
    const rest = [objects.class, objects.web, objects.webSlice, objects.api, objects.apiSlice, objects.tls]
    send(...rest.map((object) => written('create', object)), written('create', future))
    send(written('update', objects.ingressV2))
    expect(sorted(cluster.files())).toEqual(sorted(fullRebuild([...rest, objects.ingressV2]).files))
    send(deleted(objects.ingressV2))
    expect(sorted(cluster.files())).toEqual(sorted(fullRebuild(rest).files))
    send(written('create', objects.ingressV1))
    expect(sorted(cluster.files())).toEqual(sorted(fullRebuild([...rest, objects.ingressV1]).files))
  })
})
