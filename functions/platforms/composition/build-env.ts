import type { AesGcm } from '../../../core/crypto/aes-gcm.ts'
import type { HashText } from '../../../core/hash.ts'
import type { Gzip } from '../../../core/tree/node-body.ts'
import { systemClock, type Clock } from '../../../core/ports/clock.ts'
import type { ClusterWriterFactory } from '../../../core/ports/cluster-writer.ts'
import type { ObjectStore } from '../../../core/ports/object-store.ts'
import { Registry } from '../../../core/registry/registry.ts'
import { DEFAULT_LIMITS, type AppEnv, type Limits } from '../../app/app-env.ts'
import { Sealer } from '../../../core/crypto/sealer.ts'
import { PushKeys } from '../../app/services/push-keys.ts'
import type { DeploymentSecrets } from '../../../core/crypto/deployment-key.ts'
import { AgentPush } from '../../app/services/agent-push.ts'
import { ClusterMirror } from '../../app/services/cluster-mirror.ts'
import { Metrics, type Gauge } from '../../app/services/metrics.ts'
import { NodeCaches, type CacheBudget } from '../../app/services/node-caches.ts'
import { Turns } from '../../app/services/turns.ts'
import { sealedStore } from './sealed-store.ts'
import { CountedStore } from '../../adapters/storage/counted-store.ts'

export interface EnvOptions {
  store: ObjectStore
  adminToken: string
  hash: HashText
  /** How nodes are gzipped in storage (default: the Web standard streams). */
  gzip?: Gzip
  /** How cluster content is sealed (default: WebCrypto's AES-GCM). */
  gcm?: AesGcm
  clock?: Clock
  limits?: Partial<Limits>
  /** Node text cached per cluster, how many clusters' caches are kept, and in all (a Worker has 128 MB in all). */
  cache?: CacheBudget
  /** How the function calls agents (tests pass their own). */
  fetcher?: typeof fetch
  /** The deployment secret(s) that wrap each cluster's data key; without them nothing is sealed, and no credentials can be stored. */
  secrets?: DeploymentSecrets
  /** How the function writes into a cluster's API server (HAProxyCfg status, Events). */
  writers?: ClusterWriterFactory
  /** What the platform alone can measure, shown in /metrics. */
  gauges?: readonly Gauge[]
  /** How background work lets the rest of the process run between its slices (see Turns; default: a timer). */
  yieldTurn?: () => Promise<void>
}

/** The app's environment from a platform's storage and secrets. */
export function buildEnv(options: EnvOptions): AppEnv {
  if (options.adminToken.length < 16) throw new Error('the admin token must be at least 16 characters')
  const clock = options.clock ?? systemClock
  const cache = options.cache ?? { perCluster: 32 * 1024 * 1024, clusters: 16 }
  const metrics = new Metrics(options.gauges)
  const sealer = options.secrets && new Sealer(options.secrets)
  const pushKeys = options.secrets && new PushKeys(options.secrets.current)
  const caches = new NodeCaches(options.hash, cache, options.gzip)
  // Counted below the sealing: what the platform's store is asked, the operations a request is bounded by.
  const counted = new CountedStore(options.store)
  // Everything below reads and writes through it: cluster content is sealed whichever route or job touches it.
  const store = sealedStore(counted, sealer, options.hash, clock, options.gcm)
  return {
    store,
    storeOperations: () => counted.operations,
    registry: new Registry(store, options.hash, clock),
    adminTokenSha256: options.hash(options.adminToken),
    hash: options.hash,
    clock,
    caches,
    ...(sealer ? { sealer } : {}),
    mirror: new ClusterMirror({ store, caches, metrics, clock, ...(sealer ? { sealer } : {}), ...(options.writers ? { writers: options.writers } : {}) }),
    metrics,
    ...(pushKeys ? { pushKeys } : {}),
    push: new AgentPush({ store, metrics, clock, caches, pushKeys, ...(options.fetcher ? { fetcher: options.fetcher } : {}) }),
    limits: { ...DEFAULT_LIMITS, ...options.limits },
    queues: new Map(),
    turns: new Turns(options.yieldTurn),
  }
}
