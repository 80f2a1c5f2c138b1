import { createExecutionContext, createScheduledController, env, waitOnExecutionContext } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { clusterKeys } from '../../core/keys/cluster-keys.ts'
import { commitEvents } from '../../core/commit/commit-events.ts'
import { readGeneration } from '../../core/reading/read-generation.ts'
import { readHead } from '../../core/reading/read-head.ts'
import { fullRebuild } from '../../core/render/full-rebuild.ts'
import { createR2Store } from '../../functions/adapters/storage/r2-store.ts'
import worker from '../../functions/platforms/workers/index.ts'
import { app, coldContext, modified } from '../support/contracts/cluster-apps.ts'

describe('the Worker’s cron trigger', () => {
  it('collects the garbage of every cluster in R2 and leaves each current generation whole', async () => {
    const store = createR2Store({ bucket: env.STORE })
    const cluster = `gc-${Date.now().toString(36)}`
    for (const paths of [['/'], ['/', '/a'], ['/', '/b']])
      await commitEvents({ store, cluster, options: {}, context: coldContext() }, app(1, paths).map(modified))
    const count = async () => {
      let objects = 0
      for await (const _ of store.list(`clusters/${cluster}/`)) objects++
      return objects
    }
    const before = await count()

    const ctx = createExecutionContext()
    worker.scheduled(createScheduledController({ cron: '23 * * * *' }), { ...env, HAPEDGE_GC_KEEP: '1', HAPEDGE_GC_GRACE_SECONDS: '0' }, ctx)
    await waitOnExecutionContext(ctx)

    expect(await count()).toBeLessThan(before)
    const head = await readHead(store, clusterKeys(cluster))
    expect(await readGeneration(store, cluster, head!.head.manifest, coldContext())).toEqual(fullRebuild(app(1, ['/', '/b'])).files)
  })
})
