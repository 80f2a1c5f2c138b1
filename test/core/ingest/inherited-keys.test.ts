import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { fullRebuild } from '../../../core/render/full-rebuild.ts'
import { LiveCluster } from '../../../core/incremental/live-cluster.ts'
import { SnapshotReader } from '../../../core/reading/snapshot-reader.ts'
import { auditEventList, watchEventsFromAudit } from '../../../core/ingest/audit-events.ts'
import { AUDITED_RESOURCES } from '../../../core/ingest/audited-resources.ts'
import { resyncEvents } from '../../../core/ingest/resync.ts'
import { readObject } from '../../../core/kube/objects.ts'
import { auditEvent, eventList, served } from '../../support/audit-batches.ts'
import { added, deleted } from '../../support/contracts/cluster-apps.ts'
import { fixtureCertificate } from '../../support/fixtures.ts'
import { configMap, endpointSlice, ingress, ingressClass, service, tlsSecret, type IngressSpec } from '../../support/objects.ts'
import { runs } from '../../support/property-runs.ts'

/** Names a plain object answers for without holding them: what `obj[key]` or `key in obj` finds on Object.prototype. */
const INHERITED = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__'] as const

/** `{ [key]: value }` as an own property even for `__proto__`, which a literal would take for the prototype. */
const entry = <V>(key: string, value: V): Record<string, V> => Object.fromEntries([[key, value]])

/** An object as a request body is parsed: JSON, where `__proto__` is an ordinary key. */
const asReceived = (object: object): Record<string, unknown> => JSON.parse(JSON.stringify(object))

const { certPem, keyPem } = fixtureCertificate('shop.example.com')

/** An app that is served whatever else arrives beside it. */
const GOOD = [
  ingress({ name: 'good', rules: [{ host: 'good.example.com', paths: [{ service: 'web', port: 'http' }] }] }),
  service('web', [{ port: 80, name: 'http' }]),
  endpointSlice('web', ['10.0.0.1'], [{ port: 8080, name: 'http' }]),
].map(asReceived)

const badIngress = (spec: Partial<IngressSpec> = {}) =>
  ingress({ name: 'bad', rules: [{ host: 'bad.example.com', paths: [{ service: 'web', port: 'http' }] }], ...spec })
const slice = endpointSlice('web', ['10.0.0.2'], [{ port: 8080, name: 'http' }], { name: 'web-bad' })

/** Every field of input that hapedge uses as a lookup key (or compares with one), set to `name`. */
const PLACEMENTS: [field: string, place: (name: string) => object][] = [
  ['kind', (name) => ({ ...service('x'), kind: name })],
  ['kind, without apiVersion', (name) => ({ kind: name, metadata: { name: 'x', namespace: 'default' } })],
  ['apiVersion', (name) => ({ ...service('x'), apiVersion: name })],
  ['a key of the object', (name) => ({ ...service('x'), ...entry(name, { kind: 'Ingress' }) })],
  ['a key of metadata', (name) => ({ ...service('x'), metadata: { name: 'x', namespace: 'default', ...entry(name, 'x') } })],
  ['metadata.namespace', (name) => service('x', [{ port: 80 }], name)],
  ['metadata.name', (name) => service(name)],
  ['an annotation key', (name) => badIngress({ annotations: entry(name, 'true') })],
  ['a hapedge.io/ annotation key', (name) => badIngress({ annotations: entry(`hapedge.io/${name}`, 'true') })],
  ['an annotation value', (name) => badIngress({ annotations: { 'hapedge.io/ssl-redirect': name } })],
  ['the legacy class annotation', (name) => badIngress({ className: null, classAnnotation: name })],
  [
    'a Service annotation key',
    (name) => service('x', [{ port: 80 }], 'default', { ...entry(name, 'x'), 'hapedge.io/backend-config-snippet': 'timeout server 5s' }),
  ],
  ['a label key', (name) => ({ ...slice, metadata: { ...slice.metadata, labels: { ...entry(name, 'web'), 'kubernetes.io/service-name': 'web' } } })],
  ['the service-name label', (name) => endpointSlice(name, ['10.0.0.2'], [{ port: 8080, name: 'http' }])],
  ['a ConfigMap data key', (name) => configMap({ ...entry(name, 'x'), balance: 'leastconn' })],
  ['a ConfigMap data value', (name) => configMap({ balance: name })],
  ['a Service port name', (name) => service('web', [{ port: 80, name }])],
  ['an EndpointSlice port name', (name) => endpointSlice('web', ['10.0.0.2'], [{ port: 8080, name }], { name: 'web-bad' })],
  ['an Ingress backend port name', (name) => badIngress({ rules: [{ host: 'bad.example.com', paths: [{ service: 'web', port: name }] }] })],
  ['an Ingress backend Service name', (name) => badIngress({ rules: [{ host: 'bad.example.com', paths: [{ service: name }] }] })],
  ['a Secret data key', (name) => ({ ...tlsSecret('tls', certPem, keyPem), data: { ...tlsSecret('tls', certPem, keyPem).data, ...entry(name, 'eA==') } })],
  ['a rule host', (name) => badIngress({ rules: [{ host: name, paths: [{ service: 'web', port: 'http' }] }] })],
  ['a path', (name) => badIngress({ rules: [{ host: 'bad.example.com', paths: [{ path: `/${name}`, service: 'web', port: 'http' }] }] })],
  ['a TLS host and secretName', (name) => badIngress({ tls: [{ hosts: [name, 'bad.example.com'], secretName: name }] })],
  ['spec.ingressClassName', (name) => badIngress({ className: name })],
  ['an IngressClass name', (name) => ingressClass(name, true)],
]

/** A normal answer for one object: read and applied, skipped with a reason, or malformed with each issue's field and reason. */
function expectNormalRead(object: unknown): void {
  const read = readObject(object)
  if (read.status === 'skipped') expect(read.reason).not.toBe('')
  if (read.status === 'invalid') for (const issue of read.issues) expect(issue.message).not.toBe('')
}

const sortedFiles = (files: ReadonlyMap<string, string>) => [...files].sort(([a], [b]) => (a < b ? -1 : 1))

const arbitraryCase = fc.record({
  name: fc.constantFrom(...INHERITED),
  placed: fc.subarray(PLACEMENTS, { minLength: 1, maxLength: 8 }),
  badFirst: fc.boolean(),
})

describe('keys that name what Object.prototype holds (__proto__, constructor, toString…)', () => {
  it('in any field that becomes a lookup key, by events or a resync: the object is applied, skipped or rejected alone, the rest applies, and the result equals the full rebuild', () => {
    fc.assert(
      fc.property(arbitraryCase, ({ name, placed, badFirst }) => {
        const bad = placed.map(([, place]) => asReceived(place(name)))
        for (const object of bad) expectNormalRead(object)
        const sent = badFirst ? [...bad, ...GOOD] : [...GOOD, ...bad]
        const cluster = new LiveCluster()
        cluster.apply(sent.map(added))
        expect(sortedFiles(cluster.files())).toEqual(sortedFiles(fullRebuild(sent).files))
        expect(new SnapshotReader(cluster.current.snapshot).model(cluster.current.manifest, cluster.context).hosts.has('good.example.com')).toBe(true)

        // A full resync without them removes them; they can be deleted, and later writes still apply.
        cluster.apply(resyncEvents(cluster.current.snapshot, GOOD))
        expect(sortedFiles(cluster.files())).toEqual(sortedFiles(fullRebuild(GOOD).files))
        cluster.apply([...bad.map(added), ...bad.map(deleted)])
        cluster.apply(GOOD.map(added))
        expect(sortedFiles(cluster.files())).toEqual(sortedFiles(fullRebuild(GOOD).files))
      }),
      { numRuns: runs(150) },
    )
  }, 30_000)

  it('in an audit event, its objectRef or its written object: each item is translated, ignored or reported with its path, and the translation applies', () => {
    fc.assert(
      fc.property(arbitraryCase, ({ name, placed }) => {
        const bad = placed.map(([, place]) => asReceived(place(name)) as { kind?: unknown; metadata?: { name?: string; namespace?: string } })
        const writes = bad.map((object) => {
          const { group, resource } = AUDITED_RESOURCES.find((entry) => entry.kind === object.kind) ?? { group: name, resource: name }
          return auditEvent({
            verb: 'update',
            group,
            resource,
            namespace: object.metadata?.namespace,
            name: object.metadata?.name,
            responseObject: served({ metadata: {}, ...object }, '7'),
          })
        })
        const named = auditEvent({
          verb: name,
          resource: name,
          group: name,
          subresource: name,
          namespace: name,
          name,
          auditID: name,
          annotations: entry(name, name),
        })
        const { events, problems } = watchEventsFromAudit(auditEventList.parse(asReceived(eventList(...writes, named))))
        for (const problem of problems) expect(problem.path).toMatch(/^items\[\d+\]/)
        const cluster = new LiveCluster()
        cluster.apply([...GOOD.map(added), ...events.map((change) => change.event)])
        expect(new SnapshotReader(cluster.current.snapshot).model(cluster.current.manifest, cluster.context).hosts.has('good.example.com')).toBe(true)
      }),
      { numRuns: runs(100) },
    )
  }, 30_000)
})
