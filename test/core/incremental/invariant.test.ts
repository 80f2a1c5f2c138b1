import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { fullRebuild } from '../../../core/render/full-rebuild.ts'
import { buildGeneration, recordOf } from '../../../core/generation/generation.ts'
import { LiveCluster } from '../../../core/incremental/live-cluster.ts'
import { SnapshotReader } from '../../../core/reading/snapshot-reader.ts'
import { NodeCache } from '../../../core/tree/node-cache.ts'
import { nodeSha256 } from '../../../functions/adapters/hash/node-sha256.ts'
import type { WatchEvent } from '../../../core/incremental/watch-event.ts'
import { resyncEvents } from '../../../core/ingest/resync.ts'
import { requestedClass } from '../../../core/kube/ingress.ts'
import { DEFAULT_OPTIONS, type ClusterOptions } from '../../../core/model/settings.ts'
import { ClusterState } from '../../../core/model/cluster-state.ts'
import { Keyspace } from '../../../core/snapshot/keyspace.ts'
import { gatewayApiStatus } from '../../../core/gateway-status/gateway-api-status.ts'
import { storedGatewayStatus } from '../../../core/gateway-status/stored-gateway-status.ts'
import {
  arbitraryGatewayObject,
  arbitraryGrpcObject,
  arbitraryFallThroughObject,
  arbitraryNamespaceObject,
  arbitrarySharedHostObject,
  arbitraryCertificateGrantObject,
  arbitraryObject,
  arbitraryOptions,
  identityOf,
} from '../../support/arbitrary-objects.ts'
import { runs } from '../../support/property-runs.ts'

type AnyObject = Parameters<typeof identityOf>[0] & Record<string, unknown>

/** How a put's resourceVersion relates to the others': none, rising, falling (an etcd restore) or far in the future. Each is unique to its step. */
type Versioning = 'none' | 'rising' | 'falling' | 'far'

const versionAt = (versioning: Versioning, step: number): string | undefined =>
  versioning === 'none'
    ? undefined
    : versioning === 'rising'
      ? String(1000 + step)
      : versioning === 'falling'
        ? String(1000 - step)
        : `${'9'.repeat(20)}${step}`

/**
 * A step: put an object (ADDED or MODIFIED) at some resourceVersion, delete the n-th object
 * currently in the cluster, send a full resync of the objects currently in it, or change the
 * cluster's settings (its record's options), which the next batch runs under.
 */
const stepOf = (objects: fc.Arbitrary<unknown>) =>
  fc.oneof(
    { weight: 6, arbitrary: fc.record({ put: objects, versioning: fc.constantFrom<Versioning>('none', 'none', 'rising', 'falling', 'far') }) },
    { weight: 2, arbitrary: fc.nat().map((pick) => ({ deletePick: pick })) },
    { weight: 1, arbitrary: fc.constant({ resync: true as const }) },
    { weight: 1, arbitrary: arbitraryOptions.map((options) => ({ options })) },
  )

type Step = { put: unknown; versioning: Versioning } | { deletePick: number } | { resync: true } | { options: ClusterOptions }

type Batch = { options: Partial<ClusterOptions>; events: WatchEvent[] } | { options: Partial<ClusterOptions>; resync: AnyObject[] }

const withVersion = (object: AnyObject, version: string | undefined): AnyObject =>
  version === undefined ? object : { ...object, metadata: Object.assign({}, object.metadata, { resourceVersion: version }) }

/**
 * The steps as batches of events, each with the options it runs under: a change of options ends
 * the batch. `live` ends as the objects a full rebuild reads. Every valid ConfigMap is kept, whatever
 * the configured one (custom-headers may name any), so a change of the settings ConfigMap's name forgets none.
 */
function batchesOf(steps: Step[], batchSizes: number[]) {
  const live = new Map<string, AnyObject>()
  const batches: Batch[] = []
  let options: Partial<ClusterOptions> = {}
  let pending: WatchEvent[] = []
  const flush = () => {
    for (let i = 0, b = batches.length; i < pending.length; b++) {
      const size = batchSizes[b % batchSizes.length]!
      batches.push({ options, events: pending.slice(i, i + size) })
      i += size
    }
    pending = []
  }
  for (const [index, step] of steps.entries()) {
    if ('resync' in step) {
      flush()
      batches.push({ options, resync: [...live.values()] })
    } else if ('options' in step) {
      flush()
      options = step.options
      // An empty change, as a PATCH commits: the new options alone.
      batches.push({ options, events: [] })
    } else if ('put' in step) {
      const object = withVersion(step.put as AnyObject, versionAt(step.versioning, index))
      const id = identityOf(object)
      pending.push({ type: live.has(id) ? 'MODIFIED' : 'ADDED', object })
      live.set(id, object)
    } else if (live.size > 0) {
      const id = [...live.keys()][step.deletePick % live.size]!
      pending.push({ type: 'DELETED', object: live.get(id)! })
      live.delete(id)
    }
  }
  flush()
  return { batches, live, options }
}

const sortedFiles = (files: ReadonlyMap<string, string>) => [...files].sort(([a], [b]) => (a < b ? -1 : 1))

/**
 * The incremental path, batch after batch, against a full rebuild of the final objects: files, generation, model, rejections,
 * warnings, the Gateway API status; and a history-independent snapshot.
 */
function holdsEqualToFullRebuild(steps: Step[], batchSizes: number[], seed: number): void {
  const cluster = new LiveCluster({}, nodeSha256)
  const { batches, live, options } = batchesOf(steps, batchSizes)
  for (const batch of batches) {
    cluster.options = batch.options
    cluster.apply('resync' in batch ? resyncEvents(cluster.current.snapshot, batch.resync, batch.options) : batch.events)
  }
  const reference = fullRebuild(live.values(), options)
  expect(sortedFiles(cluster.files())).toEqual(sortedFiles(reference.files))
  const generation = buildGeneration(reference.layout, { nodes: new NodeCache(), hash: nodeSha256 })
  expect(recordOf(cluster.current.manifest, cluster.context).text).toBe(generation.record.text)

  const view = new SnapshotReader(cluster.current.snapshot)
  expect(view.rejections()).toEqual(reference.model.rejections)
  expect(view.warnings()).toEqual(reference.model.warnings)
  expect(view.ignored()).toEqual(reference.state.ignoredByClass())
  const ingresses = [...live.values()].filter((object) => object.kind === 'Ingress')
  const ours = { ...DEFAULT_OPTIONS, ...options }.ingressClass
  expect(reference.state.ignoredByClass()).toEqual({
    otherClass: ingresses.filter((object) => ![undefined, ours].includes(requestedClass(object))).length,
    noDefaultClass: reference.state.servesClass(undefined) ? 0 : ingresses.filter((object) => requestedClass(object) === undefined).length,
  })
  const model = view.model(cluster.current.manifest, cluster.context)
  expect(new Map([...model.hosts].sort())).toEqual(new Map([...reference.model.hosts].sort()))
  expect(new Map([...model.backends].sort())).toEqual(new Map([...reference.model.backends].sort()))
  expect(model.defaultBackend).toEqual(reference.model.defaultBackend)
  expect(new Map([...model.certificates].sort())).toEqual(new Map([...reference.model.certificates].sort()))
  // The Gateway API status each commit kept for what it touched, byte for byte the status computed over every object.
  const at = '2026-12-05T00:00:00.000Z'
  const stored = storedGatewayStatus(cluster.current.snapshot, new ClusterState(options, new Keyspace(cluster.current.snapshot)), at)
  expect(JSON.stringify(stored)).toBe(JSON.stringify(gatewayApiStatus(reference.state, at)))

  const shuffled = [...live.values()].sort((a, b) => hashOrder(identityOf(a), seed) - hashOrder(identityOf(b), seed))
  const direct = new LiveCluster(options, nodeSha256)
  direct.apply(shuffled.map((object) => ({ type: 'ADDED' as const, object })))
  // Deletions leave tombstones, which a full resync of the same objects replaces with the list's versions alone.
  cluster.apply(resyncEvents(cluster.current.snapshot, [...live.values()], options))
  expect(direct.current.snapshot.root).toEqual(cluster.current.snapshot.root)
}

/** Steps drawn from one pool of objects, in any batching and seed, each ending equal to a full rebuild. */
function equalToFullRebuild(pool: fc.Arbitrary<unknown>, steps: { minLength?: number; maxLength: number }, numRuns: number): void {
  fc.assert(fc.property(fc.array(stepOf(pool), steps), fc.array(fc.integer({ min: 1, max: 6 }), { minLength: 1 }), fc.integer(), holdsEqualToFullRebuild), {
    numRuns: runs(numRuns),
  })
}

// Each run count keeps its test within a third of its timeout on two loaded cores; every run draws new cases.
describe('the incremental path equals the full rebuild', () => {
  it('for any sequence of events and changes of settings, in any batching: files, generation, model, rejections, warnings; and the snapshot is history-independent', () => {
    equalToFullRebuild(arbitraryObject, { maxLength: 60 }, 150)
  }, 60_000)

  it('for Gateway API objects drawn together (GatewayClasses, Gateways, HTTPRoutes, ReferenceGrants, Namespaces, what they name, Ingresses they conflict with)', () => {
    equalToFullRebuild(arbitraryGatewayObject, { minLength: 15, maxLength: 40 }, 80)
  }, 60_000)

  it('for GRPCRoutes whose matches of a service alone come and go beside a method alone on their hosts', () => {
    equalToFullRebuild(arbitraryGrpcObject, { minLength: 10, maxLength: 30 }, 100)
  }, 60_000)

  it('for names HTTPRoutes alone serve beneath wildcards they serve, and Ingresses that come and go on them (the fall-through map)', () => {
    equalToFullRebuild(arbitraryFallThroughObject, { minLength: 10, maxLength: 30 }, 60)
  }, 60_000)

  it('for ReferenceGrants and Secrets that come and go under Gateways naming certificates of another namespace', () => {
    equalToFullRebuild(arbitraryCertificateGrantObject, { minLength: 10, maxLength: 30 }, 80)
  }, 60_000)

  it('for many Ingresses on one host, their number crossing the one past which the host table holds them whole, both ways', () => {
    equalToFullRebuild(arbitrarySharedHostObject, { minLength: 10, maxLength: 40 }, 80)
  }, 60_000)

  it("for Namespaces whose labels change under Gateways' Selector listeners and their HTTPRoutes", () => {
    equalToFullRebuild(arbitraryNamespaceObject, { minLength: 10, maxLength: 30 }, 150)
  }, 60_000)
})

/** A seeded order of ids, so the second cluster sees the final objects in an order unrelated to the first's. */
function hashOrder(id: string, seed: number): number {
  let hash = seed | 0
  for (let i = 0; i < id.length; i++) hash = Math.imul(hash ^ id.charCodeAt(i), 0x01000193)
  return hash >>> 0
}
