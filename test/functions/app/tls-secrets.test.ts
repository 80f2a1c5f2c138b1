import { describe, expect, it } from 'vitest'
import { commitEvents } from '../../../core/commit/commit-events.ts'
import { FILES } from '../../../core/render/files.ts'
import { clusterKeys } from '../../../core/keys/cluster-keys.ts'
import type { ObjectStore } from '../../../core/ports/object-store.ts'
import { NodeLoader } from '../../../core/reading/node-loader.ts'
import { readHead } from '../../../core/reading/read-head.ts'
import { runLoading } from '../../../core/reading/run-loading.ts'
import { SNAPSHOT_SHAPE } from '../../../core/snapshot/keyspace.ts'
import { CLUSTER_WIDE, TABLE, treeKey } from '../../../core/snapshot/tables.ts'
import { Tree } from '../../../core/tree/tree.ts'
import { coldContext } from '../../support/contracts/cluster-apps.ts'
import { fixtureCertificate } from '../../support/fixtures.ts'
import { ingress, service, tlsSecret } from '../../support/objects.ts'
import { harness } from './app-harness.ts'

const shop = fixtureCertificate('shop.example.com')
const mismatched = tlsSecret('shop-tls', shop.certPem, fixtureCertificate('apps.example.com').keyPem)
const shopIngress = ingress({
  name: 'shop',
  tls: [{ hosts: ['shop.example.com'], secretName: 'shop-tls' }],
  rules: [{ host: 'shop.example.com', paths: [{ service: 'web' }] }],
})

/** HEAD's snapshot as a version that stored Secrets without judging them wrote it: its settings entry records layout 2. */
async function asWrittenBeforeTheCheck(store: ObjectStore, cluster: string): Promise<void> {
  const keys = clusterKeys(cluster)
  const context = coldContext()
  const loader = new NodeLoader(store, keys, context)
  const current = (await readHead(store, keys))!
  const snapshot = new Tree(SNAPSHOT_SHAPE, current.head.snapshot, context)
  const settingsKey = treeKey(TABLE.settings, CLUSTER_WIDE)
  const settings = JSON.parse((await runLoading(() => snapshot.get(settingsKey), loader))!) as object
  const edited = await runLoading(() => snapshot.edit(new Map([[settingsKey, JSON.stringify({ ...settings, layout: 2 })]])), loader)
  await Promise.all(edited.created.map((node) => store.put(keys.node(node.space, node.sha256), node.text)))
  const head = { ...current.head, revision: current.head.revision + 1, snapshot: edited.tree.root }
  expect(await store.put(keys.head, `${JSON.stringify(head)}\n`, { ifMatch: current.etag })).toBeDefined()
}

describe('TLS Secrets a write carries', () => {
  it('are judged at the first write of a snapshot stored before the check, so such a Secret is rejected by the next resync', async () => {
    const server = harness()
    const token = await server.register('prod')
    const objects = [service('web'), shopIngress, mismatched]
    // As a cluster stored it before writes checked certificates against their keys.
    await commitEvents(
      { store: server.store, cluster: 'prod', options: {}, context: coldContext() },
      objects.map((object) => ({ type: 'MODIFIED', object })),
    )
    const files = async () =>
      ((await (await server.call('GET', '/v1/clusters/prod/status', token)).json()) as { files: { path: string }[] }).files.map((file) => file.path)
    expect(await files()).toContain(FILES.crtList)
    await asWrittenBeforeTheCheck(server.store, 'prod')

    const response = await server.call('PUT', '/v1/clusters/prod/objects', token, { apiVersion: 'v1', kind: 'List', items: objects })
    expect(response.status).toBe(200)
    expect(await response.json()).toMatchObject({
      committed: true,
      rejected: [
        { object: 'Ingress default/shop', reason: 'spec.tls[0]: Secret default/shop-tls is invalid: tls.key does not match the certificate in tls.crt' },
        { object: 'Secret default/shop-tls', reason: 'tls.key does not match the certificate in tls.crt' },
      ],
    })
    expect(await files()).not.toContain(FILES.crtList)

    // The same list again sends nothing, and still answers the rejections of the objects it lists.
    const again = await server.call('PUT', '/v1/clusters/prod/objects', token, { apiVersion: 'v1', kind: 'List', items: objects })
    expect(await again.json()).toMatchObject({
      committed: false,
      rejected: [{ object: 'Ingress default/shop' }, { object: 'Secret default/shop-tls' }],
    })
  })
})
