import { describe, expect, it } from 'vitest'
import { auditEventList, auditEventListSchema, watchEventsFromAudit } from '../../../core/ingest/audit-events.ts'
import { fixtureCertificate } from '../../support/fixtures.ts'
import { configMap, endpointSlice, ingress, ingressClass, service, tlsSecret } from '../../support/objects.ts'
import { gateway, gatewayClass, httpRoute, referenceGrant } from '../../support/gateway-objects.ts'
import { auditEvent, deletedStatus, eventList, served, type AuditSpec } from '../../support/audit-batches.ts'

const { certPem, keyPem } = fixtureCertificate('shop.example.com')

const web = ingress({ name: 'web', namespace: 'shop', rules: [{ host: 'shop.example.com', paths: [{ service: 'web', port: 'http' }] }] })

/** One object of each kind hapedge reads, with where the API serves it. */
const KINDS = [
  { resource: 'ingresses', group: 'networking.k8s.io', object: web },
  { resource: 'ingressclasses', group: 'networking.k8s.io', object: ingressClass('hapedge', true) },
  { resource: 'services', group: '', object: service('web', [{ port: 80, name: 'http' }], 'shop') },
  { resource: 'secrets', group: '', object: tlsSecret('shop-tls', certPem, keyPem, 'shop') },
  { resource: 'configmaps', group: '', object: configMap({ 'http-bind': '0.0.0.0:80' }) },
  { resource: 'endpointslices', group: 'discovery.k8s.io', object: endpointSlice('web', ['10.0.0.1'], [{ port: 8080, name: 'http' }], { namespace: 'shop' }) },
  { resource: 'gatewayclasses', group: 'gateway.networking.k8s.io', object: gatewayClass() },
  { resource: 'gateways', group: 'gateway.networking.k8s.io', object: gateway('edge', [{ name: 'web' }], { namespace: 'shop' }) },
  {
    resource: 'httproutes',
    group: 'gateway.networking.k8s.io',
    object: httpRoute({ name: 'web', namespace: 'shop', rules: [{ backends: [{ service: 'web' }] }] }),
  },
  { resource: 'referencegrants', group: 'gateway.networking.k8s.io', object: referenceGrant('let', 'shop', 'team') },
] as const

type Written = { kind: string; metadata: { name: string; namespace?: string } & Record<string, unknown> } & Record<string, unknown>

function resourceOf(object: Written) {
  const entry = KINDS.find((kind) => kind.object.kind === object.kind)!
  return { resource: entry.resource, group: entry.group, namespace: object.metadata.namespace, name: object.metadata.name }
}

/** A successful create, update or patch of `object`, answered at `resourceVersion`. */
function write(verb: 'create' | 'update' | 'patch', object: Written, resourceVersion: string, spec: Partial<AuditSpec> = {}) {
  const requestObject = verb === 'patch' ? { metadata: { annotations: { team: 'shop' } } } : object
  return auditEvent({ verb, ...resourceOf(object), requestObject, responseObject: served(object, resourceVersion), ...spec })
}

/** A successful delete answered with a Status, as most stores answer. */
function remove(object: Written, spec: Partial<AuditSpec> = {}) {
  const { resource, group, name } = resourceOf(object)
  return auditEvent({
    verb: 'delete',
    ...resourceOf(object),
    requestObject: { kind: 'DeleteOptions', apiVersion: 'meta.k8s.io/__internal', propagationPolicy: 'Background' },
    responseObject: deletedStatus(group, resource, name, `uid-${name}`),
    ...spec,
  })
}

const translate = (...items: unknown[]) => watchEventsFromAudit(auditEventList.parse(eventList(...items)))
const typesAndNames = (result: ReturnType<typeof translate>) =>
  result.events.map(({ event }) => `${event.type} ${String(event.object.kind)} ${JSON.stringify(event.object.metadata)}`)

describe('watchEventsFromAudit: writes', () => {
  it.each(KINDS.flatMap(({ object }) => (['create', 'update', 'patch'] as const).map((verb) => [verb, object.kind, object] as const)))(
    '%s of a %s is a MODIFIED with the answered object',
    (verb, _, object) => {
      const item = write(verb, object, '4711')
      const result = translate(item)
      expect(result).toEqual({
        events: [{ auditID: item.auditID, stage: 'ResponseComplete', event: { type: 'MODIFIED', object: served(object, '4711') } }],
        skipped: 0,
        problems: [],
      })
    },
  )

  it.each(KINDS.map(({ object }) => [object.kind, object] as const))('a delete of a %s answered with a Status is a DELETED named by objectRef', (_, object) => {
    const result = translate(remove(object))
    const namespace = 'namespace' in object.metadata ? { namespace: object.metadata.namespace } : {}
    expect(result.problems).toEqual([])
    expect(result.events.map(({ event }) => event)).toEqual([
      { type: 'DELETED', object: { apiVersion: object.apiVersion, kind: object.kind, metadata: { name: object.metadata.name, ...namespace } } },
    ])
  })

  it("a delete answered with the deleted object keeps its name and the deletion's resourceVersion, not its body", () => {
    const result = translate(remove(web, { responseObject: served(web, '5120') }))
    expect(result.events.map(({ event }) => event)).toEqual([
      {
        type: 'DELETED',
        object: { apiVersion: 'networking.k8s.io/v1', kind: 'Ingress', metadata: { name: 'web', namespace: 'shop', resourceVersion: '5120' } },
      },
    ])
  })

  it('a delete held by a finalizer leaves the object; the update that removes the finalizer deletes it', () => {
    const held = {
      ...web,
      metadata: { ...web.metadata, finalizers: ['example.com/lb'], deletionTimestamp: '2024-05-01T10:00:00Z', deletionGracePeriodSeconds: 0 },
    }
    const released = { ...held, metadata: { ...held.metadata, finalizers: [] } }
    const result = translate(remove(web, { responseObject: served(held, '5200') }), write('update', released, '5200'))
    expect(result.events.map(({ event }) => [event.type, event.object.metadata])).toEqual([
      ['MODIFIED', served(held, '5200').metadata],
      // The answer carries the version the update started from, which the engine has seen: the DELETED must not be stamped with it.
      ['DELETED', { name: 'web', namespace: 'shop' }],
    ])
  })

  it('an update of the status subresource applies the whole object it answers', () => {
    const withStatus = { ...web, status: { loadBalancer: { ingress: [{ ip: '203.0.113.7' }] } } }
    const result = translate(write('update', withStatus, '6000', { subresource: 'status' }))
    expect(result.events.map(({ event }) => event)).toEqual([{ type: 'MODIFIED', object: served(withStatus, '6000') }])
  })

  it('a deletecollection is a DELETED per object it answers, unstamped; an object held by a finalizer stays', () => {
    const slice = (name: string, finalizers?: string[]) => {
      const { apiVersion: _v, kind: _k, ...rest } = served(endpointSlice('web', ['10.0.0.1'], [{ port: 8080 }], { name, namespace: 'shop' }), '700')
      return finalizers ? { ...rest, metadata: { ...rest.metadata, finalizers } } : rest
    }
    const list = {
      kind: 'EndpointSliceList',
      apiVersion: 'discovery.k8s.io/v1',
      metadata: { resourceVersion: '701' },
      items: [slice('web-a'), slice('web-b', ['example.com/keep'])],
    }
    const result = translate(
      auditEvent({
        verb: 'deletecollection',
        resource: 'endpointslices',
        group: 'discovery.k8s.io',
        namespace: 'shop',
        query: '?labelSelector=kubernetes.io%2Fservice-name%3Dweb',
        responseObject: list,
      }),
    )
    expect(typesAndNames(result)).toEqual(['DELETED EndpointSlice {"name":"web-a","namespace":"shop"}'])
  })
})

describe('watchEventsFromAudit: what is not a change', () => {
  it.each([409, 404, 422])('ignores a write answered %i', (code) => {
    expect(translate(write('create', web, '1', { code, responseObject: undefined }), remove(web, { code, responseObject: undefined }))).toEqual({
      events: [],
      skipped: 2,
      problems: [],
    })
  })

  it.each(['RequestReceived', 'ResponseStarted', 'Panic'] as const)('ignores the %s stage', (stage) => {
    expect(translate(write('update', web, '2', { stage }))).toEqual({ events: [], skipped: 1, problems: [] })
  })

  it.each(['get', 'list', 'watch'])('ignores %s', (verb) => {
    expect(translate(auditEvent({ verb, resource: 'ingresses', group: 'networking.k8s.io', namespace: 'shop', responseObject: served(web, '3') }))).toEqual({
      events: [],
      skipped: 1,
      problems: [],
    })
  })

  it('ignores resources hapedge does not read, and subresources other than status', () => {
    const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web-0', namespace: 'shop' }, spec: { containers: [] } }
    const deployment = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: 'shop' }, spec: {} }
    const result = translate(
      auditEvent({ verb: 'create', resource: 'pods', namespace: 'shop', name: 'web-0', responseObject: served(pod, '10') }),
      auditEvent({ verb: 'patch', resource: 'deployments', group: 'apps', namespace: 'shop', name: 'web', responseObject: served(deployment, '11') }),
      auditEvent({ verb: 'create', resource: 'services', subresource: 'proxy', namespace: 'shop', name: 'web', responseObject: { kind: 'Status' } }),
      // A same-named resource in another group is not the one hapedge reads.
      auditEvent({ verb: 'create', resource: 'ingresses', group: 'extensions.example.com', namespace: 'shop', name: 'web', responseObject: served(web, '12') }),
    )
    expect(result).toEqual({ events: [], skipped: 4, problems: [] })
  })

  it('ignores a server-side dry run, which is audited like a write', () => {
    expect(translate(write('patch', web, '13', { query: '?dryRun=All&fieldManager=kubectl-client-side-apply' }))).toEqual({
      events: [],
      skipped: 1,
      problems: [],
    })
  })

  it('applies an event once when the batch repeats its auditID and stage', () => {
    const item = write('update', web, '20')
    const result = translate(item, item, { ...item, stage: 'ResponseStarted' })
    expect(result.events).toHaveLength(1)
    expect(result.skipped).toBe(2)
  })
})

describe('watchEventsFromAudit: order', () => {
  it("orders one object's writes by resourceVersion in the places they hold; other objects keep theirs", () => {
    const api = service('api', [{ port: 80 }], 'shop')
    const result = translate(write('update', web, '120'), write('create', api, '100'), write('update', web, '9'), write('patch', web, '110'))
    expect(result.events.map(({ event }) => `${String(event.object.kind)} ${String((event.object.metadata as Written['metadata']).resourceVersion)}`)).toEqual([
      'Ingress 9',
      'Service 100',
      'Ingress 110',
      'Ingress 120',
    ])
  })

  it('puts a deletion known by uid only after the writes to that uid', () => {
    const result = translate(remove(web), write('create', web, '300'))
    expect(result.events.map(({ event }) => event.type)).toEqual(['MODIFIED', 'DELETED'])
  })
})

describe('watchEventsFromAudit: Secrets', () => {
  const opaque = {
    apiVersion: 'v1',
    kind: 'Secret',
    type: 'Opaque',
    metadata: { name: 'db', namespace: 'shop' },
    data: { password: 'c3VwZXItc2VjcmV0LXBhc3N3b3Jk' },
  }

  it('turns a write of a Secret of another type into a DELETED by name, without its data', () => {
    const result = translate(write('create', opaque, '400'), write('update', opaque, '401'), remove(opaque, { responseObject: served(opaque, '402') }))
    expect(typesAndNames(result)).toEqual([
      'DELETED Secret {"name":"db","namespace":"shop","resourceVersion":"400"}',
      'DELETED Secret {"name":"db","namespace":"shop","resourceVersion":"401"}',
      'DELETED Secret {"name":"db","namespace":"shop","resourceVersion":"402"}',
    ])
    expect(JSON.stringify(result)).not.toContain('c3VwZXItc2VjcmV0LXBhc3N3b3Jk')
  })

  it('lets no data through from a deletecollection of Secrets', () => {
    const { apiVersion: _v, kind: _k, ...item } = served(opaque, '410')
    const list = { kind: 'SecretList', apiVersion: 'v1', metadata: { resourceVersion: '411' }, items: [item] }
    const result = translate(auditEvent({ verb: 'deletecollection', resource: 'secrets', namespace: 'shop', responseObject: list }))
    expect(typesAndNames(result)).toEqual(['DELETED Secret {"name":"db","namespace":"shop"}'])
    expect(JSON.stringify(result)).not.toContain('c3VwZXItc2VjcmV0LXBhc3N3b3Jk')
  })

  it('forwards a TLS Secret with its data', () => {
    const tls = tlsSecret('shop-tls', certPem, keyPem, 'shop')
    expect(translate(write('create', tls, '420')).events[0]?.event).toEqual({ type: 'MODIFIED', object: served(tls, '420') })
  })
})

describe('watchEventsFromAudit: problems', () => {
  it('reports a malformed event with its path and applies the rest', () => {
    const bad = auditEvent({
      verb: 'delete',
      resource: 'services',
      namespace: 'shop',
      name: 'Web Front',
      responseObject: deletedStatus('', 'services', 'Web Front', 'u'),
    })
    const { auditID: _, ...anonymous } = write('update', web, '501')
    const result = translate(write('create', web, '500'), bad, anonymous, 'not an event', write('update', web, '502'))
    expect(result.events.map(({ event }) => (event.object.metadata as Written['metadata']).resourceVersion)).toEqual(['500', '502'])
    expect(result.problems).toEqual([
      { path: 'items[1].objectRef.name', message: expect.stringMatching(/DNS subdomain/) },
      { path: 'items[2].auditID', message: expect.any(String) },
      { path: 'items[3]', message: expect.any(String) },
    ])
  })

  it('reports a write without its object, naming the policy level it needs', () => {
    const result = translate(
      write('update', web, '600', { responseObject: null }),
      write('create', service('api'), '601', { responseObject: null, annotations: { 'audit.k8s.io/truncated': 'true' } }),
    )
    expect(result.events).toEqual([])
    expect(result.problems).toEqual([
      { path: 'items[0].responseObject', message: expect.stringMatching(/ingresses\.networking\.k8s\.io at level RequestResponse/) },
      { path: 'items[1].responseObject', message: expect.stringMatching(/too large.*--audit-webhook-truncate-max-event-size/) },
    ])
  })

  it('reports an object written through an API version hapedge does not read, instead of removing it', () => {
    const result = translate(write('update', { ...web, apiVersion: 'networking.k8s.io/v1beta1' }, '700'))
    expect(result).toEqual({
      events: [],
      skipped: 0,
      problems: [{ path: 'items[0].responseObject.apiVersion', message: expect.stringMatching(/only networking\.k8s\.io\/v1/) }],
    })
  })
})

describe('auditEventList', () => {
  it('takes the EventList envelope and refuses anything else', () => {
    expect(auditEventList.safeParse(eventList()).success).toBe(true)
    expect(auditEventList.safeParse({ ...eventList(), apiVersion: 'audit.k8s.io/v1beta1' }).success).toBe(false)
    expect(auditEventList.safeParse({ ...eventList(), kind: 'List' }).success).toBe(false)
  })

  it('holds at most the limit the caller passes', () => {
    const items = Array.from({ length: 401 }, () => write('update', web, '1'))
    expect(auditEventListSchema(400).safeParse(eventList(...items)).error?.issues[0]).toMatchObject({
      path: ['items'],
      message: expect.stringMatching(/at most 400/),
    })
    expect(auditEventList.safeParse(eventList(...items)).success).toBe(true)
  })
})
