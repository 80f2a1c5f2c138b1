import { clusterKeys } from '../../../core/keys/cluster-keys.ts'
import { readGenerationRecord } from '../../../core/reading/generation-records.ts'
import { readHead } from '../../../core/reading/read-head.ts'
import { optionsOf, type ClusterRecord } from '../../../core/registry/cluster-record.ts'
import type { HAProxyCfgStatus } from '../../../core/kube/haproxycfg.ts'
import { gatewayStatusChangeOfHead, gatewayStatusOfHead } from '../../../core/status/gateway-status-of-head.ts'
import type { GatewayApiStatus, GatewayStatusChange } from '../../../core/kube/gateway-status.ts'
import { statusOfHead } from '../../../core/status/status-of-head.ts'
import type { AppEnv } from '../app-env.ts'
import { agentsOf } from './agent-reports.ts'

type StatusEnv = Pick<AppEnv, 'store' | 'caches' | 'clock'>

/** The `HAProxyCfg` status of what the cluster's HEAD names now, with every agent's report; undefined before the first generation. */
export async function currentStatus(env: StatusEnv, record: ClusterRecord): Promise<HAProxyCfgStatus | undefined> {
  const keys = clusterKeys(record.id)
  const current = await readHead(env.store, keys)
  if (!current) return undefined
  const pods = await agentsOf(env.store, keys.root, env.clock.now())
  return statusOfHead(
    { store: env.store, cluster: record.id, options: optionsOf(record), context: env.caches.for(record.id) },
    current.head,
    pods,
    env.clock.now(),
  )
}

/**
 * HEAD's generation and its Gateway API status: what changed since the generation `since` whose
 * status was written (`GET …/gateway-status?since=`, the function's own writer), or whole: without
 * `since`, or for one no longer retained or newer than HEAD (a cluster sent again from nothing).
 * With `unchanged: 'skip'`, no status when `since` is HEAD's generation (an agent's report, a
 * write that committed nothing): nothing is read. Undefined before the first generation; a null
 * status for an older layout.
 */
export async function gatewayStatusSince(
  env: StatusEnv,
  record: ClusterRecord,
  since: number | undefined,
  unchanged: 'read' | 'skip' = 'read',
): Promise<{ generation: number; status?: GatewayApiStatus | GatewayStatusChange | null } | undefined> {
  const keys = clusterKeys(record.id)
  const current = await readHead(env.store, keys)
  if (!current) return undefined
  const { head } = current
  if (unchanged === 'skip' && since === head.generation) return { generation: head.generation }
  const written = since !== undefined && since <= head.generation ? await readGenerationRecord(env.store, keys, since) : undefined
  const sources = { store: env.store, cluster: record.id, options: optionsOf(record), context: env.caches.for(record.id) }
  const now = env.clock.now()
  const status = written ? await gatewayStatusChangeOfHead(sources, head, now, written.snapshot) : await gatewayStatusOfHead(sources, head, now)
  return { generation: head.generation, status }
}
