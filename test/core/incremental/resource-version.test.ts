import { describe, expect, it } from 'vitest'
import { fullRebuild } from '../../../core/full-rebuild.ts'
import { compareResourceVersions } from '../../../core/incremental/resource-version.ts'
import { LiveCluster } from '../../../core/incremental/live-cluster.ts'
import { added, app, deleted, modified } from '../../support/contracts/cluster-apps.ts'

const at = <T extends { metadata: object }>(object: T, resourceVersion: string): T => ({ ...object, metadata: { ...object.metadata, resourceVersion } })

describe('ordering by resourceVersion', () => {
  it('compares etcd revisions as numbers, beyond 2^53 too', () => {
    expect(compareResourceVersions('9', '10')).toBeLessThan(0)
    expect(compareResourceVersions('18446744073709551615', '18446744073709551614')).toBeGreaterThan(0)
    expect(compareResourceVersions('42', '42')).toBe(0)
  })

  it('refuses a write older than one already applied, as audit batches arrive out of order', () => {
    const [oneRoute] = app(1, ['/'])
    const [twoRoutes, ...rest] = app(1, ['/', '/v2'])
    const cluster = new LiveCluster()
    cluster.apply(rest.map(added))
    cluster.apply([modified(at(twoRoutes!, '107'))])
    const late = cluster.apply([modified(at(oneRoute!, '105'))])
    expect(late.files.size).toBe(0)
    expect(cluster.files()).toEqual(fullRebuild([twoRoutes, ...rest]).files)
  })

  it('keeps a deleted object deleted when an older create arrives after the delete', () => {
    const [ingress, ...rest] = app(1)
    const cluster = new LiveCluster()
    cluster.apply(rest.map(added))
    cluster.apply([deleted(at(ingress!, '210')), added(at(ingress!, '200'))])
    expect(cluster.files()).toEqual(fullRebuild(rest).files)
    // A newer create after the delete brings it back.
    cluster.apply([added(at(ingress!, '211'))])
    expect(cluster.files()).toEqual(fullRebuild([ingress, ...rest]).files)
  })

  it('applies objects without a decimal resourceVersion as they come', () => {
    const [first] = app(1, ['/'])
    const [second, ...rest] = app(1, ['/', '/v2'])
    const cluster = new LiveCluster()
    cluster.apply([...rest.map(added), modified(at(second!, '300')), modified(first!)])
    expect(cluster.files()).toEqual(fullRebuild([first, ...rest]).files)
  })
})
