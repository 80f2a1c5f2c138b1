import { describe, expect, it } from 'vitest'
import { commitEvents } from '../../../core/commit/commit-events.ts'
import { loadIgnoredIngresses } from '../../../core/fleet/ignored-ingresses.ts'
import { clusterKeys } from '../../../core/keys/cluster-keys.ts'
import { NodeLoader } from '../../../core/reading/node-loader.ts'
import { createMemoryStore } from '../../../functions/adapters/storage/memory-store.ts'
import { added, app, coldContext, modified } from '../../support/contracts/cluster-apps.ts'
import { ingress } from '../../support/objects.ts'

describe('the count of Ingresses ignored by class after a write', () => {
  it('reads nothing more from storage: its paths were loaded with the commit’s, in the same rounds', async () => {
    const store = createMemoryStore()
    const objects = Array.from({ length: 150 }, (_, n) => app(n)).flat()
    const others = Array.from({ length: 30 }, (_, n) =>
      ingress({ name: `nginx-${n}`, className: 'nginx', rules: [{ host: `n${n}.example.com`, paths: [{ service: 'app-1' }] }] }),
    )
    await commitEvents({ store, cluster: 'c', options: {}, context: coldContext() }, [...objects, ...others].map(added))
    // A cold process writes one event, then answers the count.
    const context = coldContext()
    const committed = await commitEvents({ store, cluster: 'c', options: {}, context }, [modified(app(7, ['/', '/v2'])[0])])
    const { snapshot, generation } = committed.applied!
    const loader = new NodeLoader(store, clusterKeys('c'), context)
    expect(await loadIgnoredIngresses({ snapshot, manifest: generation.manifest }, loader)).toEqual({ otherClass: others.length, noDefaultClass: 0 })
    expect(loader.stats.rounds).toBe(0)
  })
})
