import { describe, expect, it } from 'vitest'
import { LiveCluster } from '../../../core/incremental/live-cluster.ts'
import { SnapshotReader } from '../../../core/reading/snapshot-reader.ts'
import { FILES } from '../../../core/render/files.ts'
import { fullRebuild } from '../../../core/render/full-rebuild.ts'
import { endpointSlice, ingress, service } from '../../support/objects.ts'

/** server-alias in the model and the hosts map, and what a change costs: an alias is a hosts map entry, edited at runtime. */

const serviceObjects = [service('web'), endpointSlice('web', ['10.0.0.1'])]
const site = (name: string, hosts: string[], annotations: Record<string, string> = {}, createdAt?: string) =>
  ingress({ name, annotations, createdAt, rules: hosts.map((host) => ({ host, paths: [{ path: '/', pathType: 'Prefix' as const, service: 'web' }] })) })
const added = (object: unknown) => ({ type: 'ADDED' as const, object: object as Record<string, unknown> })
const modified = (object: unknown) => ({ type: 'MODIFIED' as const, object: object as Record<string, unknown> })

describe('server-alias', () => {
  it('an alias is a hosts map entry naming the host it is served as', () => {
    const { files, model } = fullRebuild([site('shop', ['shop.test'], { 'hapedge.io/server-alias': 'www.shop.test' }), ...serviceObjects])
    expect(files.get(FILES.hostsMap)).toBe('shop.test shop.test\nwww.shop.test shop.test\n')
    expect(model.rejections).toEqual([])
    expect(model.warnings).toEqual([])
  })

  it('an Ingress of several hosts serves its aliases as the first, and says so; one without a named host ignores them, and says so', () => {
    const { files, model } = fullRebuild([
      site('two', ['b.test', 'a.test'], { 'hapedge.io/server-alias': 'alias.test' }),
      ingress({ name: 'catch-all', annotations: { 'hapedge.io/server-alias': 'lost.test' }, rules: [{ paths: [{ service: 'web' }] }] }),
      ...serviceObjects,
    ])
    expect(files.get(FILES.hostsMap)).toBe('a.test a.test\nalias.test b.test\nb.test b.test\n')
    expect(model.warnings.map(({ object, reason }) => [object, reason])).toEqual([
      ['Ingress default/catch-all', 'the Ingress names no host to serve the aliases as (a rule without host is the catch-all); ignored'],
      ['Ingress default/two', 'the aliases are served as "b.test", the first host of spec.rules (the Ingress names 2)'],
    ])
  })

  it('a changed alias is a hosts map edit, without a reload', () => {
    const cluster = new LiveCluster({})
    cluster.apply([...serviceObjects, site('shop', ['shop.test'], { 'hapedge.io/server-alias': 'old.test' })].map(added))
    const changed = cluster.apply([modified(site('shop', ['shop.test'], { 'hapedge.io/server-alias': 'new.test' }))])
    expect(changed.plan).toMatchObject({ reload: false, reasons: [] })
    expect(changed.plan.maps).toEqual(
      expect.arrayContaining([
        { map: FILES.hostsMap, key: 'old.test' },
        { map: FILES.hostsMap, key: 'new.test', value: 'shop.test' },
      ]),
    )
  })

  it('a later Ingress whose rules serve the alias takes the name, and the alias is rejected naming it', () => {
    const cluster = new LiveCluster({})
    cluster.apply([...serviceObjects, site('shop', ['shop.test'], { 'hapedge.io/server-alias': 'promo.test' })].map(added))
    const claimed = cluster.apply([added(site('promo', ['promo.test'], {}, '2025-01-01T00:00:00Z'))])
    expect(claimed.plan.reload).toBe(false)
    expect(claimed.plan.maps).toContainEqual({ map: FILES.hostsMap, key: 'promo.test', value: 'promo.test' })
    expect(new SnapshotReader(cluster.current.snapshot).rejections()).toEqual([
      { object: 'Ingress default/shop', reason: 'server-alias "promo.test" is a host of Ingress default/promo; not served as an alias' },
    ])
  })
})
