import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { seededRandom } from '../../../bench/random.ts'
import { syntheticCluster } from '../../../bench/synthetic-cluster.ts'
import { endpointSlice } from '../../../core/kube/endpoint-slice.ts'
import { FAIL, FAST_READERS } from '../../../core/kube/fast-read.ts'
import { ingress } from '../../../core/kube/ingress.ts'
import type { Kind } from '../../../core/kube/objects.ts'
import { tlsSecret } from '../../../core/kube/secret.ts'
import { service } from '../../../core/kube/service.ts'
import { runs } from '../../support/property-runs.ts'

const SCHEMAS = { Ingress: ingress, Service: service, EndpointSlice: endpointSlice, Secret: tlsSecret } as const

/** Values that fail one field or another: wrong types, empty, too long, not a name, not a path. */
const junk = fc.constantFrom<unknown>(
  undefined,
  null,
  '',
  0,
  -1,
  1.5,
  70000,
  Number.NaN,
  true,
  [],
  {},
  'UPPER',
  'a b',
  '-x',
  'x'.repeat(300),
  '/a b',
  '1.2.3.4',
  '*.a.com',
  'Prefix ',
)

/** Mostly the valid value, sometimes junk (a whole object is then valid often enough to be compared). */
const field = (valid: fc.Arbitrary<unknown>) => fc.oneof({ weight: 200, arbitrary: valid }, { weight: 1, arbitrary: junk })

/**
 * An object whose keys are each mostly present (the `rare` ones mostly absent), sometimes with a
 * key no schema knows, sometimes with a key present but undefined.
 */
function objectOf(fields: Record<string, fc.Arbitrary<unknown>>, rare: string[] = []): fc.Arbitrary<Record<string, unknown>> {
  const entries = Object.entries(fields).map(([key, value]) => {
    const present = value.map((v) => [[key, v]] as [string, unknown][])
    const absent = fc.constant([] as [string, unknown][])
    return rare.includes(key)
      ? fc.oneof({ weight: 1, arbitrary: present }, { weight: 25, arbitrary: absent })
      : fc.oneof({ weight: 40, arbitrary: present }, { weight: 1, arbitrary: absent })
  })
  return fc.tuple(fc.tuple(...entries), fc.boolean(), fc.integer({ min: 0, max: 200 }), fc.nat()).map(([parts, extra, undefinedAt, which]) => {
    const object = Object.fromEntries(parts.flat())
    if (extra) object.unknownField = 'kept out'
    const keys = Object.keys(object)
    if (undefinedAt === 0 && keys.length > 0) object[keys[which % keys.length]!] = undefined
    return object
  })
}

/** One of the usual values, now and then one of the odd ones (valid or not: the schema decides). */
const pick = (usual: unknown[], odd: unknown[]) =>
  field(fc.oneof({ weight: 100, arbitrary: fc.constantFrom(...usual) }, { weight: 1, arbitrary: fc.constantFrom(...odd) }))

const listOf = (item: fc.Arbitrary<unknown>, minLength = 1) => field(fc.array(item, { minLength, maxLength: 3 }))
const name = pick(['web', 'api-1', 'a.b', 'x'.repeat(63)], [`${'x'.repeat(64)}.y`, 'A'])
const namespace = pick(['default', 'team-1'], ['Team'])
const host = pick(['shop.example.com', '*.example.com', 'a'], ['', '1.2.3.4', '*.*.a'])
const port = field(
  fc.oneof(
    { weight: 10, arbitrary: objectOf({ number: pick([80, 443, 65535], [0, 1.5]) }) },
    { weight: 10, arbitrary: objectOf({ name: pick(['http', 'web-1'], ['80', 'x'.repeat(16)]) }) },
    { weight: 1, arbitrary: fc.constant({ number: 80, name: 'http' }) },
  ),
)
const serviceName = pick(['web', 'api-1', 'x'.repeat(63)], ['a.b'])
const backend = field(objectOf({ service: field(objectOf({ name: serviceName, port })), resource: fc.constant({ kind: 'X', name: 'y' }) }, ['resource']))
const path = objectOf({
  path: pick(['/', '/api', '/a/b/', '/%41'], ['/x y', 'x', '/%4']),
  pathType: pick(['Exact', 'Prefix', 'ImplementationSpecific'], ['prefix']),
  backend,
})
const metadata = objectOf(
  {
    name,
    namespace,
    creationTimestamp: pick(['2024-01-01T00:00:00Z', '2024-01-01T00:00:00.5+02:00'], ['yesterday']),
    labels: field(fc.constantFrom({ app: 'web' }, null)),
    annotations: field(fc.constantFrom({ 'hapedge.io/ssl-redirect': 'true' }, { 'hapedge.io/x': '1' }, null)),
  },
  ['labels', 'annotations'],
)

const arbitraries: Record<keyof typeof SCHEMAS, fc.Arbitrary<Record<string, unknown>>> = {
  Ingress: objectOf({
    apiVersion: fc.constant('networking.k8s.io/v1'),
    kind: fc.constant('Ingress'),
    metadata: field(metadata),
    spec: field(
      objectOf({
        ingressClassName: pick(['hapedge', 'other'], ['x'.repeat(254)]),
        defaultBackend: backend,
        tls: listOf(objectOf({ hosts: listOf(host), secretName: name })),
        rules: listOf(objectOf({ host, http: field(objectOf({ paths: listOf(path, 0) })) })),
      }),
    ),
  }),
  Service: objectOf({
    apiVersion: fc.constant('v1'),
    kind: fc.constant('Service'),
    metadata: field(
      objectOf({ name, namespace, annotations: field(fc.constantFrom({ 'hapedge.io/backend-config-snippet': 'x' }, { a: 'b' })) }, ['annotations']),
    ),
    spec: field(
      objectOf({
        type: field(fc.constantFrom('ClusterIP', 'ExternalName')),
        ports: listOf(objectOf({ name, port: field(fc.constantFrom(80, 8080)), protocol: field(fc.constantFrom('TCP', 'UDP')) }), 0),
      }),
    ),
  }),
  EndpointSlice: objectOf({
    apiVersion: fc.constant('discovery.k8s.io/v1'),
    kind: fc.constant('EndpointSlice'),
    metadata: field(objectOf({ name, namespace, labels: field(objectOf({ 'kubernetes.io/service-name': name })) })),
    addressType: field(fc.constantFrom('IPv4', 'IPv6', 'FQDN')),
    endpoints: listOf(
      objectOf({
        addresses: listOf(field(fc.constantFrom('10.0.0.1', '::1', 'fd00::2', 'db.local', '999.1.1.1'))),
        conditions: field(objectOf({ ready: field(fc.constantFrom(true, false, null)), serving: field(fc.boolean()), terminating: field(fc.boolean()) })),
      }),
      0,
    ),
    ports: listOf(
      objectOf({ name: field(fc.constantFrom('http', '', null)), port: field(fc.constantFrom(8080, null)), protocol: field(fc.constantFrom('TCP', null)) }),
      0,
    ),
  }),
  Secret: objectOf({
    apiVersion: fc.constant('v1'),
    kind: fc.constant('Secret'),
    type: fc.constant('kubernetes.io/tls'),
    metadata: field(objectOf({ name, namespace })),
    data: field(objectOf({ 'tls.crt': field(fc.constantFrom('QUJD', 'QUJD\n', 'QQ==', 'not base64!')), 'tls.key': field(fc.constantFrom('QUJD', 'QQ==')) })),
  }),
}

/** The value as JSON with its undefined fields shown, so field order and presence both count. */
const exactly = (value: unknown) => JSON.stringify(value, (_, field) => (field === undefined ? '(undefined)' : field))

describe('reading the common forms of objects without zod', () => {
  for (const kind of Object.keys(SCHEMAS) as (keyof typeof SCHEMAS)[]) {
    it(`gives exactly what the ${kind} schema gives, fields in order, or leaves the object to it`, () => {
      const read = FAST_READERS[kind]!
      fc.assert(
        fc.property(arbitraries[kind], (object) => {
          const fast = read(object)
          if (fast === FAIL) return
          const parsed = SCHEMAS[kind].safeParse(object)
          expect(parsed.success).toBe(true)
          expect(exactly(fast)).toBe(exactly(parsed.data))
        }),
        { numRuns: runs(3000) },
      )
    })
  }

  it('gives an object already in its read form back as it is, and copies one it trims, leaving the input as it was', () => {
    const [ingress] = syntheticCluster(1, seededRandom(1)).filter((object) => object.kind === 'Ingress') as Record<string, unknown>[]
    // A state holds what the request parsed, not a second copy of it (objects are never changed in place).
    expect(FAST_READERS.Ingress!(ingress)).toBe(ingress)
    const sent = { ...ingress!, status: { loadBalancer: {} } }
    const read = FAST_READERS.Ingress!(sent) as Record<string, unknown>
    expect(read).not.toBe(sent)
    expect(Object.keys(read)).toEqual(['apiVersion', 'kind', 'metadata', 'spec'])
    // What it did not trim is shared, not copied.
    expect(read.spec).toBe(ingress!.spec)
    expect(sent.status).toEqual({ loadBalancer: {} })
    const reordered = { kind: 'Ingress', ...ingress! }
    expect(Object.keys(FAST_READERS.Ingress!(reordered) as object)).toEqual(['apiVersion', 'kind', 'metadata', 'spec'])
  })

  it('reads every object of a synthetic cluster itself (the forms a full rebuild meets by the thousand)', () => {
    const objects = syntheticCluster(400, seededRandom(400))
    const left = objects.filter((object) => FAST_READERS[object.kind as Kind]?.(object) === FAIL)
    expect(left).toEqual([])
    expect(objects.filter((object) => FAST_READERS[object.kind as Kind]).length).toBeGreaterThan(objects.length - 2)
  })
})
