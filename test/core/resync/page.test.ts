import { describe, expect, it } from 'vitest'
import { clusterKeys } from '../../../core/keys/cluster-keys.ts'
import { LiveCluster } from '../../../core/incremental/live-cluster.ts'
import { storedAt } from '../../../core/ingest/listed-state.ts'
import { NodeLoader } from '../../../core/reading/node-loader.ts'
import { stagePage, storedDigest } from '../../../core/resync/page.ts'
import { nodeSha256 } from '../../../functions/adapters/hash/node-sha256.ts'
import { createMemoryStore } from '../../../functions/adapters/storage/memory-store.ts'
import { ingress, service } from '../../support/objects.ts'

const web = (version: string) => ({ ...service('web'), metadata: { name: 'web', namespace: 'default', resourceVersion: version } })

describe('stagePage: what a page of a resync stages', () => {
  it('lists every key it names, sorted, and stages only the items that differ, with a digest of what their key held', async () => {
    const cluster = new LiveCluster({}, nodeSha256)
    const shop = ingress({ name: 'shop', rules: [{ host: 'shop.example.com', paths: [{ path: '/', service: 'web' }] }] })
    cluster.apply([
      { type: 'ADDED', object: web('1') },
      { type: 'ADDED', object: shop },
    ])
    const snapshot = cluster.current.snapshot
    // Everything is in the cluster's cache: a loader over an empty store would fail if it were asked for anything.
    const loader = new NodeLoader(createMemoryStore(), clusterKeys('prod'), cluster.context)
    const api = service('api')
    const staged = await stagePage(snapshot, [api, web('2'), shop], {}, loader, nodeSha256)
    expect(staged.keys.keys).toEqual(['Ingress/default/shop', 'Service/default/api', 'Service/default/web'])
    expect(staged.items.items.map((item) => item.key)).toEqual(['Service/default/api', 'Service/default/web'])
    const [added, changed] = staged.items.items
    expect(added!.stored).toBe(storedDigest({}, nodeSha256))
    expect(changed!.stored).toBe(storedDigest(storedAt(snapshot, 'Service/default/web'), nodeSha256))
    expect(changed!.item).toEqual(web('2'))
  })

  it('a cluster with no snapshot yet stages every item it reads, and none it does not', async () => {
    const loader = new NodeLoader(createMemoryStore(), clusterKeys('prod'), new LiveCluster({}, nodeSha256).context)
    const staged = await stagePage(undefined, [web('1'), { kind: 'Pod', metadata: { name: 'p' } }], {}, loader, nodeSha256)
    expect(staged.keys.keys).toEqual(['Service/default/web'])
    expect(staged.items.items).toHaveLength(1)
  })
})
