import { collectAllGarbage } from '../../core/commit/collect-all-garbage.ts'
import { sha256Text } from '../../core/hash.ts'
import { NodeCache } from '../../core/tree/node-cache.ts'
import { createApp } from '../app/app.ts'
import { createR2Store, type R2BucketBinding } from '../storage/r2-store.ts'

export interface WorkerEnv {
  STORE: R2BucketBinding
  /** Generations kept by garbage collection (default 50). */
  GC_KEEP?: string
  /** Unreferenced objects younger than this are kept (seconds, default 900). */
  GC_GRACE_SECONDS?: string
}

interface ExecutionContextLike {
  waitUntil(promise: Promise<unknown>): void
}

const app = createApp()

export default {
  fetch: app.fetch,
  /** The cron trigger of wrangler.toml: collect every cluster's garbage (a Worker's node cache stays well under its 128 MB). */
  scheduled(_controller: unknown, env: WorkerEnv, ctx: ExecutionContextLike): void {
    const context = () => ({ nodes: new NodeCache(16 * 1024 * 1024), hash: sha256Text })
    const options = { keep: Number(env.GC_KEEP ?? 50), graceMs: Number(env.GC_GRACE_SECONDS ?? 900) * 1000 }
    ctx.waitUntil(
      collectAllGarbage(createR2Store({ bucket: env.STORE }), context, options).then((outcomes) => {
        for (const outcome of outcomes) if ('error' in outcome) console.error(`garbage collection of ${outcome.cluster} failed: ${outcome.error}`)
      }),
    )
  },
}
