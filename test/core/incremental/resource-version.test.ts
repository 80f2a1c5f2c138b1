import { describe, expect, it } from 'vitest'
import { fullRebuild } from '../../../core/render/full-rebuild.ts'
import { compareResourceVersions } from '../../../core/incremental/resource-version.ts'
import { LiveCluster } from '../../../core/incremental/live-cluster.ts'
import { resyncEvents } from '../../../core/ingest/resync.ts'
import { added, app, deleted, modified } from '../../support/contracts/cluster-apps.ts'

const at = <T extends { metadata: object }>(object: T, resourceVersion: string): T => ({ ...object, metadata: { ...object.metadata, resourceVersion } })

/** Past any revision etcd will reach: what a bad write, or a cluster restored from an older backup, leaves behind. */
const FAR_FUTURE = '99999999999999999999'

const [oneRoute, ...rest] = app(1, ['/'])
const [twoRoutes] = app(1, ['/', '/v2'])

/** A cluster holding the app's Service and endpoints, and its Ingress as `ingress`. */
function clusterWith(...events: Parameters<LiveCluster['apply']>[0][]) {
  const cluster = new LiveCluster()
  cluster.apply(rest.map(added))
  for (const batch of events) cluster.apply(batch)
  return cluster
}

const resync = (cluster: LiveCluster, items: object[]) => cluster.apply(resyncEvents(cluster.current.snapshot, items as Record<string, unknown>[]))
const servesOnly = (cluster: LiveCluster, objects: unknown[]) => expect(cluster.files()).toEqual(fullRebuild(objects).files)

describe('resourceVersions are opaque: events apply in the order they come', () => {
  it('orders decimal revisions as numbers, beyond 2^53 too (within one audit batch)', () => {
    expect(compareResourceVersions('9', '10')).toBeLessThan(0)
    expect(compareResourceVersions('18446744073709551615', '18446744073709551614')).toBeGreaterThan(0)
    expect(compareResourceVersions('42', '42')).toBe(0)
  })

  it('applies a write that follows one at a far-future version, in a later request or the same one', () => {
    const later = clusterWith([modified(at(twoRoutes!, FAR_FUTURE))], [modified(at(oneRoute!, '5'))])
    servesOnly(later, [oneRoute, ...rest])
    const sameRequest = clusterWith([modified(at(twoRoutes!, FAR_FUTURE)), modified(at(oneRoute!, '5'))])
    servesOnly(sameRequest, [oneRoute, ...rest])
    later.apply([deleted(at(oneRoute!, '6'))])
    servesOnly(later, rest)
  })

  it('accepts versions going backwards, as after an etcd restore', () => {
    const cluster = clusterWith([added(at(twoRoutes!, '1000'))], [modified(at(oneRoute!, '900'))])
    servesOnly(cluster, [oneRoute, ...rest])
    cluster.apply([deleted(at(oneRoute!, '950'))])
    servesOnly(cluster, rest)
    cluster.apply([added(at(twoRoutes!, '800'))])
    servesOnly(cluster, [twoRoutes, ...rest])
  })

  it('drops only a repeat of what was last applied: a retried write of an object deleted since leaves it deleted', () => {
    const cluster = clusterWith([added(at(oneRoute!, '200'))], [deleted(oneRoute!)])
    const retried = cluster.apply([added(at(oneRoute!, '200'))])
    expect(retried.stale).toBe(1)
    servesOnly(cluster, rest)
    // A write at any other version is news, opaque or not.
    cluster.apply([added(at(oneRoute!, 'opaque-7'))])
    servesOnly(cluster, [oneRoute, ...rest])
    expect(cluster.apply([modified(at(twoRoutes!, 'opaque-7'))]).stale).toBe(1)
    cluster.apply([modified(at(twoRoutes!, 'opaque-8'))])
    servesOnly(cluster, [twoRoutes, ...rest])
  })
})

describe('a full resync is the truth', () => {
  it('replaces an object held at a far-future version, and the version with the list’s', () => {
    const cluster = clusterWith([modified(at(twoRoutes!, FAR_FUTURE))])
    resync(cluster, [at(oneRoute!, '5'), ...rest])
    servesOnly(cluster, [oneRoute, ...rest])
    // The far-future version is forgotten: a write at it is news again.
    cluster.apply([modified(at(twoRoutes!, FAR_FUTURE))])
    servesOnly(cluster, [twoRoutes, ...rest])
  })

  it('deletes an object held at a far-future version that the list lacks', () => {
    const cluster = clusterWith([added(at(oneRoute!, FAR_FUTURE))])
    resync(cluster, rest)
    servesOnly(cluster, rest)
  })

  it('forgets a tombstone: an object deleted at a far-future version comes back listed, and after a list that lacks it, at that very version', () => {
    const listed = clusterWith([added(at(oneRoute!, '7'))], [deleted(at(oneRoute!, FAR_FUTURE))])
    resync(listed, [at(oneRoute!, '8'), ...rest])
    servesOnly(listed, [oneRoute, ...rest])

    const unlisted = clusterWith([added(at(oneRoute!, '7'))], [deleted(at(oneRoute!, FAR_FUTURE))])
    resync(unlisted, rest)
    unlisted.apply([added(at(oneRoute!, FAR_FUTURE))])
    servesOnly(unlisted, [oneRoute, ...rest])
  })
})
