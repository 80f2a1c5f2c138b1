import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { LiveCluster } from '../../../core/incremental/live-cluster.ts'
import type { WatchEvent } from '../../../core/incremental/watch-event.ts'
import { fullRebuild } from '../../../core/render/full-rebuild.ts'
import { endpointSlice, ingress, service, type PathType } from '../../support/objects.ts'
import { runs } from '../../support/property-runs.ts'

/**
 * Canaries through the incremental engine: main and canary Ingresses of one host that come, change
 * (weights, header values, header and cookie names, Services, paths) and go, beside the Services they
 * name, in any order and batching, always give the files of a full rebuild of the same objects.
 */

const HOST = 'shop.example.com'
const NGINX = 'nginx.ingress.kubernetes.io/'
const paths = fc.subarray(['/', '/api', '/static'], { minLength: 1 })
const pathType = fc.constantFrom<PathType>('Prefix', 'Prefix', 'Exact')

const mainIngress = fc
  .record({
    name: fc.constantFrom('main-a', 'main-b'),
    paths,
    pathType,
    service: fc.constantFrom('web', 'api'),
    createdAt: fc.constantFrom('2024-01-01T00:00:00Z', '2024-02-01T00:00:00Z'),
  })
  .map(({ name, paths, pathType, service, createdAt }) =>
    ingress({ name, createdAt, rules: [{ host: HOST, paths: paths.map((path) => ({ path, pathType, service })) }] }),
  )

const canarySettings = fc.constantFrom<Record<string, string>>(
  { [`${NGINX}canary-weight`]: '20' },
  { [`${NGINX}canary-weight`]: '35', [`${NGINX}canary-weight-total`]: '1000' },
  { 'hapedge.io/canary-by-header': 'X-Canary', 'hapedge.io/canary-by-cookie': 'canary' },
  { [`${NGINX}canary-by-header`]: 'X-Beta', [`${NGINX}canary-by-header-value`]: 'yes' },
  { [`${NGINX}canary-by-header`]: 'X-Beta', [`${NGINX}canary-by-header-pattern`]: '^(a|b)$', [`${NGINX}canary-weight`]: '5' },
  { [`${NGINX}canary-by-cookie`]: 'other', [`${NGINX}load-balance`]: 'round_robin' },
  { [`${NGINX}enable-modsecurity`]: 'true' },
)

const canaryIngress = fc
  .record({
    name: fc.constantFrom('canary-a', 'canary-b'),
    paths,
    pathType,
    service: fc.constantFrom('beta', 'beta', 'web'),
    settings: canarySettings,
    on: fc.constantFrom('true', 'true', 'false'),
  })
  .map(({ name, paths, pathType, service, settings, on }) =>
    ingress({
      name,
      createdAt: '2024-03-01T00:00:00Z',
      annotations: { [`${NGINX}canary`]: on, ...settings },
      rules: [{ host: HOST, paths: paths.map((path) => ({ path, pathType, service })) }],
    }),
  )

const serviceObject = fc
  .constantFrom('web', 'api', 'beta')
  .chain((name) => fc.constantFrom(service(name), endpointSlice(name, ['10.0.0.1']), endpointSlice(name, ['10.0.0.2', '10.0.0.3'])))

type AnyObject = { kind: string; metadata: { namespace?: string; name: string } }
const identity = (object: AnyObject) => `${object.kind}/${object.metadata.namespace}/${object.metadata.name}`

const step = fc.oneof(
  { weight: 3, arbitrary: canaryIngress.map((put) => ({ put })) },
  { weight: 2, arbitrary: mainIngress.map((put) => ({ put })) },
  { weight: 2, arbitrary: serviceObject.map((put) => ({ put })) },
  { weight: 1, arbitrary: fc.nat().map((deletePick) => ({ deletePick })) },
)

describe('canaries, incrementally', () => {
  it('for any sequence of main and canary Ingresses and their Services, in any batching, equal a full rebuild byte for byte', () => {
    let attached = 0
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 25 }), fc.integer({ min: 1, max: 4 }), (steps, batchSize) => {
        const live = new Map<string, AnyObject>()
        const cluster = new LiveCluster({})
        let batch: WatchEvent[] = []
        for (const next of steps) {
          if ('put' in next) {
            const object = next.put as AnyObject
            batch.push({ type: live.has(identity(object)) ? 'MODIFIED' : 'ADDED', object: object as unknown as Record<string, unknown> })
            live.set(identity(object), object)
          } else if (live.size > 0) {
            const key = [...live.keys()][next.deletePick % live.size]!
            batch.push({ type: 'DELETED', object: live.get(key) as unknown as Record<string, unknown> })
            live.delete(key)
          }
          if (batch.length >= batchSize) {
            cluster.apply(batch)
            batch = []
          }
        }
        cluster.apply(batch)
        const reference = fullRebuild([...live.values()])
        for (const config of reference.model.hosts.values()) attached += config.routes.filter((route) => route.canary).length
        expect([...cluster.files()].sort()).toEqual([...reference.files].sort())
      }),
      { numRuns: runs(150) },
    )
    // The sequences do reach what they are for: routes that take a canary.
    expect(attached).toBeGreaterThan(0)
  }, 60_000)
})
