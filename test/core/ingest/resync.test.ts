import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { LiveCluster } from '../../../core/incremental/live-cluster.ts'
import type { ResyncEvent } from '../../../core/incremental/resource-version.ts'
import { changedRef, objectChange, type WatchEvent } from '../../../core/incremental/watch-event.ts'
import { listedItems, listedReads, listedStates, differs } from '../../../core/ingest/listed-state.ts'
import { fillingEvents, resyncEvents, staleKeys } from '../../../core/ingest/resync.ts'
import { runToEnd } from '../../../core/slices.ts'
import { objectKey, objectRef, readObject, type Kind } from '../../../core/kube/objects.ts'
import type { ClusterOptions } from '../../../core/model/settings.ts'
import { ClusterState } from '../../../core/model/cluster-state.ts'
import { Keyspace } from '../../../core/snapshot/keyspace.ts'
import { SEPARATOR } from '../../../core/snapshot/separator.ts'
import { TABLE, treeKey } from '../../../core/snapshot/tables.ts'
import type { Tree } from '../../../core/tree/tree.ts'
import { nodeSha256 } from '../../../functions/adapters/hash/node-sha256.ts'
import { arbitraryObject, arbitraryOptions, type identityOf } from '../../support/arbitrary-objects.ts'
import { configMap, ingress, service, tlsSecret } from '../../support/objects.ts'
import { runs } from '../../support/property-runs.ts'

type AnyObject = Parameters<typeof identityOf>[0] & Record<string, unknown>

/**
 * The resync as it was before the merge: every listed item MODIFIED, then a DELETED for each
 * stored key the list does not hold. One change: an item of a read kind in a form hapedge does
 * not read (a Secret of another type) counts as listed, so that it leaves its version whether or
 * not its key held something before (the old resync deleted it only when it did).
 */
function everyItemResync(snapshot: Tree, items: readonly Record<string, unknown>[]): ResyncEvent[] {
  const listed = new Set<string>()
  const events: ResyncEvent[] = []
  for (const item of items) {
    const event: ResyncEvent = { type: 'MODIFIED', object: item, resync: true }
    const change = objectChange(event)
    if (!('ignore' in change)) listed.add(objectKey(changedRef(change)))
    events.push(event)
  }
  for (const table of [TABLE.object, TABLE.invalid, TABLE.resourceVersion]) {
    const prefix = treeKey(table, '')
    for (const { key } of snapshot.prefix(prefix)) {
      const stored = key.slice(prefix.length)
      if (listed.has(stored)) continue
      listed.add(stored)
      const [kind, ...rest] = stored.split('/') as [Kind, ...string[]]
      events.push({ type: 'DELETED', object: { kind, metadata: rest.length === 2 ? { namespace: rest[0], name: rest[1] } : { name: rest[0] } }, resync: true })
    }
  }
  return events
}

const withVersion = (object: AnyObject, version: string | undefined): AnyObject =>
  version === undefined ? object : { ...object, metadata: Object.assign({}, object.metadata, { resourceVersion: version }) }

/** Malformed objects of kinds hapedge reads: stored in the `invalid` table. */
const invalidObjects: AnyObject[] = [
  { apiVersion: 'networking.k8s.io/v1', kind: 'Ingress', metadata: { name: 'i1', namespace: 'default' }, spec: { rules: 'not a list' } },
  { apiVersion: 'v1', kind: 'Service', metadata: { name: 'web', namespace: 'shop' }, spec: { ports: 'none' } },
  { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'other', namespace: 'hapedge' }, data: { 'ssl-redirect': 7 } },
]
/** A Secret hapedge does not read: an item that removes the TLS Secret of its name. */
const opaqueSecret: AnyObject = { apiVersion: 'v1', kind: 'Secret', type: 'Opaque', metadata: { name: 'tls-a', namespace: 'default' }, data: {} }

const arbitraryItem = fc
  .tuple(
    fc.oneof({ weight: 8, arbitrary: arbitraryObject as fc.Arbitrary<AnyObject> }, { weight: 1, arbitrary: fc.constantFrom(...invalidObjects, opaqueSecret) }),
    fc.constantFrom(undefined, undefined, '1', '2', '3'),
  )
  .map(([object, version]) => withVersion(object, version))

/** A cluster's history before the resync: puts, deletions (tombstones when versioned) and resyncs. */
const arbitraryHistory = fc.array(
  fc.oneof(
    { weight: 4, arbitrary: arbitraryItem.map((object): WatchEvent => ({ type: 'MODIFIED', object })) },
    { weight: 1, arbitrary: arbitraryItem.map((object): WatchEvent => ({ type: 'DELETED', object })) },
  ),
  { maxLength: 30 },
)

function clusterAfter(history: readonly WatchEvent[], options: Partial<ClusterOptions>): LiveCluster {
  const cluster = new LiveCluster(options, nodeSha256)
  for (const event of history) cluster.apply([event])
  return cluster
}

const resync = (cluster: LiveCluster, items: readonly Record<string, unknown>[]) =>
  cluster.apply(resyncEvents(cluster.current.snapshot, items, cluster.options))

describe('a resync is one ordered merge of the list with the stored objects', () => {
  it('ends where sending every item and deleting the rest ends (snapshot root and files), and an unchanged list sends no event', () => {
    fc.assert(
      fc.property(arbitraryHistory, fc.array(arbitraryItem, { maxLength: 25 }), fc.option(arbitraryOptions, { nil: undefined }), (history, items, options) => {
        const before = options ?? {}
        const reference = clusterAfter(history, before)
        const merged = clusterAfter(history, before)
        reference.apply(everyItemResync(reference.current.snapshot, items))
        resync(merged, items)
        expect(merged.current.snapshot.root).toEqual(reference.current.snapshot.root)
        expect(merged.current.manifest.root).toEqual(reference.current.manifest.root)
        expect(merged.files()).toEqual(reference.files())
        expect(resyncEvents(merged.current.snapshot, items, merged.options)).toEqual([])
      }),
      // Two clusters built per case: 100 keep it within a third of its timeout on two loaded cores.
      { numRuns: runs(100) },
    )
  }, 60_000)

  it('compares the objects alone: the listing keeps no index, and holds what an indexed state holds', () => {
    fc.assert(
      fc.property(fc.array(arbitraryItem, { maxLength: 25 }), fc.option(arbitraryOptions, { nil: undefined }), (items, options) => {
        const unindexedSpace = Keyspace.inMemory()
        const unindexed = new ClusterState(options ?? {}, unindexedSpace, false)
        const indexed = new ClusterState(options ?? {})
        for (const item of items) for (const state of [unindexed, indexed]) state.apply(readObject(item))
        const tables = new Set([...unindexedSpace.edits().keys()].map((key) => key.slice(0, key.indexOf(SEPARATOR))))
        expect([...tables].filter((table) => table !== TABLE.object && table !== TABLE.invalid)).toEqual([])
        for (const item of items) {
          const read = readObject(item)
          if (read.status === 'skipped') continue
          const ref = read.status === 'invalid' ? read.ref : objectRef(read.object)
          expect(unindexed.get(ref)).toEqual(indexed.get(ref))
        }
      }),
      { numRuns: runs(200) },
    )
  })

  it('sends only the objects that differ, and a DELETED for each stored key the list lacks', () => {
    const web = service('web')
    const api = service('api')
    const cluster = new LiveCluster({}, nodeSha256)
    cluster.apply([web, api].map((object) => ({ type: 'ADDED', object })))
    const changed = service('web', [{ port: 8080 }])
    const events = resyncEvents(cluster.current.snapshot, [changed])
    expect(events).toEqual([
      { type: 'DELETED', object: { kind: 'Service', metadata: { namespace: 'default', name: 'api' } }, resync: true },
      { type: 'MODIFIED', object: changed, resync: true },
    ])
    expect(staleKeys(cluster.current.snapshot, ['Service/default/web'])).toEqual(['Service/default/api'])
    expect(staleKeys(cluster.current.snapshot, [], 'Service/default/b')).toEqual(['Service/default/web'])
  })

  it('sends an object whose version alone changed, and deletes a tombstone the list lacks', () => {
    const web = withVersion(service('web') as AnyObject, '5')
    const api = withVersion(service('api') as AnyObject, '6')
    const cluster = new LiveCluster({}, nodeSha256)
    cluster.apply([web, api].map((object) => ({ type: 'ADDED', object })))
    cluster.apply([{ type: 'DELETED', object: api }])
    expect(cluster.current.snapshot.get(treeKey(TABLE.resourceVersion, 'Service/default/api'))).toBe('{"version":"6","deleted":true}')
    const newer = withVersion(web, '7')
    expect(resyncEvents(cluster.current.snapshot, [newer])).toEqual([
      { type: 'DELETED', object: { kind: 'Service', metadata: { namespace: 'default', name: 'api' } }, resync: true },
      { type: 'MODIFIED', object: newer, resync: true },
    ])
    resync(cluster, [newer])
    expect(cluster.current.snapshot.get(treeKey(TABLE.resourceVersion, 'Service/default/api'))).toBeUndefined()
    expect(resyncEvents(cluster.current.snapshot, [newer])).toEqual([])
  })

  it('keeps invalid objects that did not change, and sends the one that did', () => {
    const [brokenIngress, brokenService] = invalidObjects as [AnyObject, AnyObject]
    const cluster = new LiveCluster({}, nodeSha256)
    cluster.apply([brokenIngress, brokenService].map((object) => ({ type: 'ADDED', object })))
    expect(resyncEvents(cluster.current.snapshot, [brokenIngress, brokenService])).toEqual([])
    const otherwiseBroken = { ...brokenService, spec: { ports: 7 } }
    expect(resyncEvents(cluster.current.snapshot, [brokenIngress, otherwiseBroken])).toEqual([{ type: 'MODIFIED', object: otherwiseBroken, resync: true }])
  })

  it('takes the last of duplicate items, as applying them in order would', () => {
    const first = service('web')
    const last = service('web', [{ port: 9090 }])
    const cluster = new LiveCluster({}, nodeSha256)
    cluster.apply([{ type: 'ADDED', object: last }])
    expect(resyncEvents(cluster.current.snapshot, [first, last])).toEqual([])
    expect(resyncEvents(cluster.current.snapshot, [last, first])).toEqual([{ type: 'MODIFIED', object: first, resync: true }])
    expect(listedStates([first, last]).map(({ item }) => item)).toEqual([last])
  })

  it('stores a ConfigMap other than the settings one (custom-headers may name it), but a malformed one only as its version unless the options name it', () => {
    const other = withVersion(configMap({ 'X-Frame-Options': 'DENY' }, 'other') as AnyObject, '3')
    const [state] = listedStates([other])
    expect(state?.object).toBeDefined()
    const cluster = new LiveCluster({}, nodeSha256)
    resync(cluster, [other])
    expect(resyncEvents(cluster.current.snapshot, [other])).toEqual([])

    const malformed = withVersion(configMap({ 'X-Big': 'x'.repeat(5000) }, 'other') as AnyObject, '4')
    expect(listedStates([malformed])).toEqual([{ key: 'ConfigMap/hapedge/other', item: malformed, version: '{"version":"4"}' }])
    const [settings] = listedStates([malformed], { configMap: 'hapedge/other' })
    expect(settings?.invalid).toBeDefined()
    // Named by the options now: it differs, and is sent.
    resync(cluster, [malformed])
    expect(resyncEvents(cluster.current.snapshot, [malformed], { configMap: 'hapedge/other' })).toEqual([{ type: 'MODIFIED', object: malformed, resync: true }])
  })

  it('lists a Secret hapedge does not read as its version alone: the stored TLS Secret of its name is removed by it', () => {
    const cluster = new LiveCluster({}, nodeSha256)
    const tls = {
      apiVersion: 'v1',
      kind: 'Secret',
      type: 'kubernetes.io/tls',
      metadata: { name: 'tls-a', namespace: 'default' },
      data: { 'tls.crt': '', 'tls.key': '' },
    }
    cluster.apply([{ type: 'ADDED', object: tls }])
    const opaque = withVersion(opaqueSecret, '9')
    expect(listedStates([opaque])).toEqual([{ key: 'Secret/default/tls-a', item: opaque, version: '{"version":"9"}' }])
    expect(resyncEvents(cluster.current.snapshot, [opaque])).toEqual([{ type: 'MODIFIED', object: opaque, resync: true }])
    resync(cluster, [opaque])
    expect(cluster.current.snapshot.get(treeKey(TABLE.object, 'Secret/default/tls-a'))).toBeUndefined()
    expect(resyncEvents(cluster.current.snapshot, [opaque])).toEqual([])
  })

  it('compares one listed object by point lookups, whose keys can be loaded ahead', () => {
    const web = service('web')
    const cluster = new LiveCluster({}, nodeSha256)
    cluster.apply([{ type: 'ADDED', object: web }])
    const [same] = listedStates([web])
    const [other] = listedStates([service('web', [{ port: 1 }])])
    expect(differs(cluster.current.snapshot, same!)).toBe(false)
    expect(differs(cluster.current.snapshot, other!)).toBe(true)
    expect(differs(undefined, same!)).toBe(true)
    expect(listedReads([same!])).toEqual([TABLE.object, TABLE.invalid, TABLE.resourceVersion].map((table) => treeKey(table, 'Service/default/web')))
  })

  it('fills a cluster with no snapshot yet, without comparing, where comparing ends (snapshot root and files), and lists the same keys', () => {
    fc.assert(
      fc.property(fc.array(arbitraryItem, { maxLength: 25 }), fc.option(arbitraryOptions, { nil: undefined }), (items, options) => {
        const compared = new LiveCluster(options ?? {}, nodeSha256)
        const filled = new LiveCluster(options ?? {}, nodeSha256)
        resync(compared, items)
        const listed = runToEnd(listedItems(items))
        filled.apply(fillingEvents(listed))
        expect(filled.current.snapshot.root).toEqual(compared.current.snapshot.root)
        expect(filled.current.manifest.root).toEqual(compared.current.manifest.root)
        expect(filled.files()).toEqual(compared.files())
        expect(listed).toEqual(listedStates(items, options).map(({ key, item }) => ({ key, item })))
      }),
      { numRuns: runs(300) },
    )
  }, 60_000)

  it('treats every item as new for a cluster with no snapshot yet, sending what Ingresses name before them', () => {
    const [web, shop, secret] = [service('web'), ingress({ name: 'i1', rules: [] }), tlsSecret('shop-tls', 'a', 'b')] as Record<string, unknown>[]
    expect(resyncEvents(undefined, [shop!, secret!, web!]).map((event) => event.object)).toEqual([web, secret, shop])
  })
})
