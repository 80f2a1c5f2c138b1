import { sha256Text } from '../../../core/hash.ts'
import { createR2Store, type R2BucketBinding } from '../../adapters/storage/r2-store.ts'
import { deploymentSecrets } from '../composition/deployment-secrets.ts'
import { scheduledGarbageJob } from '../composition/garbage-job.ts'
import { platformApp } from '../composition/platform-app.ts'

export interface WorkerEnv {
  STORE: R2BucketBinding
  /** A secret (`wrangler secret put ADMIN_TOKEN`): registers and lists clusters. */
  ADMIN_TOKEN: string
  /** A secret: wraps each cluster's data key, under which its nodes, blobs and API server credentials are stored sealed. */
  HAPEDGE_SECRET?: string
  /** The previous HAPEDGE_SECRET, while clusters' keys are rewrapped under a new one. */
  HAPEDGE_PREVIOUS_SECRET?: string
  /** Generations kept by garbage collection (default 50). */
  HAPEDGE_GC_KEEP?: string
  /** Unreferenced objects younger than this are kept (seconds, default 900). */
  HAPEDGE_GC_GRACE_SECONDS?: string
}

interface ExecutionContextLike {
  waitUntil(promise: Promise<unknown>): void
}

/**
 * One app per isolate (its node caches stay warm across requests), made on the first request.
 * From a Worker, a cluster's API server must present a publicly trusted certificate: workerd takes no custom CA.
 */
let app: ReturnType<typeof platformApp> | undefined
const appFor = (env: WorkerEnv) =>
  (app ??= platformApp({
    store: createR2Store({ bucket: env.STORE }),
    adminToken: env.ADMIN_TOKEN,
    hash: sha256Text,
    secrets: deploymentSecrets({ ...env }),
    // 128 MB per isolate. Counted in characters of node text, which take about CACHED_BYTES_PER_CHAR (2.5) bytes of heap
    // each: at most 30 MB over every cluster, so many small clusters stay warm and one change's working set keeps the rest.
    cache: { perCluster: 8 * 1024 * 1024, clusters: 64, total: 12 * 1024 * 1024 },
  }))

export default {
  fetch(request: Request, env: WorkerEnv, ctx: ExecutionContextLike): Response | Promise<Response> {
    return appFor(env).fetch(request, env, ctx as never)
  },
  /** The cron trigger of wrangler.toml: collect every cluster's garbage. */
  scheduled(_controller: unknown, env: WorkerEnv, ctx: ExecutionContextLike): void {
    ctx.waitUntil(scheduledGarbageJob(createR2Store({ bucket: env.STORE }), { ...env }, sha256Text, 16 * 1024 * 1024))
  },
}
