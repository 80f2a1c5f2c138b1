import { collectAllGarbage } from '../../../core/garbage/collect-all-garbage.ts'
import { sha256Text } from '../../../core/hash.ts'
import { NodeCache } from '../../../core/tree/node-cache.ts'
import { createApp } from '../../app/app.ts'
import { buildEnv } from '../composition/build-env.ts'
import { deploymentSecrets } from '../composition/deployment-secrets.ts'
import { sealedStore, sealLeftoverPlaintext } from '../composition/sealed-store.ts'
import { kubernetesWriters } from '../../adapters/kubernetes/cluster-writers.ts'
import { createR2Store, type R2BucketBinding } from '../../adapters/storage/r2-store.ts'

export interface WorkerEnv {
  STORE: R2BucketBinding
  /** A secret (`wrangler secret put ADMIN_TOKEN`): registers and lists clusters. */
  ADMIN_TOKEN: string
  /** A secret: wraps each cluster's data key, under which its nodes, blobs and API server credentials are stored sealed. */
  HAPEDGE_SECRET?: string
  /** The previous HAPEDGE_SECRET, while clusters' keys are rewrapped under a new one. */
  HAPEDGE_PREVIOUS_SECRET?: string
  /** Generations kept by garbage collection (default 50). */
  GC_KEEP?: string
  /** Unreferenced objects younger than this are kept (seconds, default 900). */
  GC_GRACE_SECONDS?: string
}

interface ExecutionContextLike {
  waitUntil(promise: Promise<unknown>): void
}

/** One app per isolate (its node caches stay warm across requests), made on the first request. */
let app: ReturnType<typeof createApp> | undefined
const appFor = (env: WorkerEnv) => (app ??= workerApp(env))

function workerApp(env: WorkerEnv) {
  const secrets = deploymentSecrets({ ...env })
  return createApp(
    buildEnv({
      store: createR2Store({ bucket: env.STORE }),
      adminToken: env.ADMIN_TOKEN,
      hash: sha256Text,
      // From a Worker the API server must present a publicly trusted certificate: workerd takes no custom CA.
      writers: kubernetesWriters,
      ...(secrets ? { secrets } : {}),
      // 128 MB per isolate: a few clusters' hot nodes, well clear of one change's working set.
      cache: { perCluster: 8 * 1024 * 1024, clusters: 4 },
    }),
  )
}

export default {
  fetch(request: Request, env: WorkerEnv, ctx: ExecutionContextLike): Response | Promise<Response> {
    return appFor(env).fetch(request, env, ctx as never)
  },
  /** The cron trigger of wrangler.toml: collect every cluster's garbage. */
  scheduled(_controller: unknown, env: WorkerEnv, ctx: ExecutionContextLike): void {
    const context = () => ({ nodes: new NodeCache(16 * 1024 * 1024), hash: sha256Text })
    const options = { keep: Number(env.GC_KEEP ?? 50), graceMs: Number(env.GC_GRACE_SECONDS ?? 900) * 1000 }
    const raw = createR2Store({ bucket: env.STORE })
    // Through the sealing store: marking reads the clusters' sealed nodes.
    const store = sealedStore(raw, deploymentSecrets({ ...env }), sha256Text)
    ctx.waitUntil(
      collectAllGarbage(store, context, options).then(async (outcomes) => {
        for (const outcome of outcomes) if ('error' in outcome) console.error(`garbage collection of ${outcome.cluster} failed: ${outcome.error}`)
        await sealLeftoverPlaintext(raw, store)
      }),
    )
  },
}
