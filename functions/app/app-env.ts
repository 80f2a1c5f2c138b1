import type { HashText } from '../../core/hash.ts'
import type { Clock } from '../../core/ports/clock.ts'
import type { ObjectStore } from '../../core/ports/object-store.ts'
import type { CommitContext } from '../../core/commit/commit-events.ts'
import type { Registry } from '../../core/registry/registry.ts'
import type { Sealer } from '../../core/crypto/sealer.ts'
import { DEFAULT_RESYNC_BUDGET, type ResyncBudget } from '../../core/resync/budget.ts'
import type { AgentPush } from './services/agent-push.ts'
import type { PushKeys } from './services/push-keys.ts'
import type { ClusterMirror } from './services/cluster-mirror.ts'
import type { Metrics } from './services/metrics.ts'
import type { NodeCaches } from './services/node-caches.ts'
import type { Turns } from './services/turns.ts'
import type { WriteQueue } from './services/write-queue.ts'

/** What the app runs on: each platform's entry point builds one from its own storage and secrets. */
export interface AppEnv {
  store: ObjectStore
  /** The operations this process has made on its store so far (see CountedStore). */
  storeOperations(): number
  registry: Registry
  /** The sha256 of the admin token (the token itself is never kept). */
  adminTokenSha256: string
  hash: HashText
  clock: Clock
  caches: NodeCaches
  metrics: Metrics
  limits: Limits
  /** Seals what a cluster's record keeps secret (API server credentials); none when the deployment has no HAPEDGE_SECRET. */
  sealer?: Sealer
  /** Mirrors each commit into the cluster (HAProxyCfg status, Events), for clusters whose record gives API server access. */
  mirror: ClusterMirror
  /** Tells agents of each new generation. */
  push: AgentPush
  /** Agents' push keys, when the deployment has a secret to derive them from. */
  pushKeys?: PushKeys
  /** Each cluster's writes in progress in this process (see WriteQueue). */
  queues: Map<string, WriteQueue<CommitContext>>
  /** Small writes first: a resync's slices wait for them (see Turns). */
  turns: Turns
}

export interface Limits {
  /** Largest request body, in bytes: a larger one is refused with 413 before it is read whole. */
  bodyBytes: number
  /** Events in one `POST …/events`, items in one audit `EventList`, objects in one resync `List`. */
  events: number
  auditItems: number
  objects: number
  /** Events committed together: a larger request is committed in several generations. */
  eventsPerCommit: number
  /** Bytes of blobs sent with a `GET …/head?have=` answer; a reader fetches what does not fit one by one. */
  deltaBytes: number
  /** What each request of a paged resync may do (see ResyncBudget). */
  resync: ResyncBudget
}

export const DEFAULT_LIMITS: Limits = {
  bodyBytes: 32 * 1024 * 1024,
  events: 5_000,
  auditItems: 1_000,
  objects: 200_000,
  eventsPerCommit: 2_000,
  deltaBytes: 8 * 1024 * 1024,
  resync: DEFAULT_RESYNC_BUDGET,
}
