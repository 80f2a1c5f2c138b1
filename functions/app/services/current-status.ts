import { clusterKeys } from '../../../core/keys/cluster-keys.ts'
import { readGenerationRecord } from '../../../core/reading/generation-records.ts'
import { readHead } from '../../../core/reading/read-head.ts'
import { optionsOf, type ClusterRecord } from '../../../core/registry/cluster-record.ts'
import type { HAProxyCfgStatus } from '../../../core/kube/haproxycfg.ts'
import { gatewayStatusChangeOfHead, gatewayStatusOfHead } from '../../../core/status/gateway-status-of-head.ts'
import type { GatewayApiStatus, GatewayStatusChange } from '../../../core/kube/gateway-status.ts'
import type { Head } from '../../../core/reading/head.ts'
import type { TreeRoot } from '../../../core/tree/node.ts'
import { statusOfHead } from '../../../core/status/status-of-head.ts'
import type { AppEnv } from '../app-env.ts'
import { agentsOf } from './agent-reports.ts'

/** The `HAProxyCfg` status of what the cluster's HEAD names now, with every agent's report; undefined before the first generation. */
export async function currentStatus(env: Pick<AppEnv, 'store' | 'caches' | 'clock'>, record: ClusterRecord): Promise<HAProxyCfgStatus | undefined> {
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

type StatusEnv = Pick<AppEnv, 'store' | 'caches' | 'clock'>

/**
 * The Gateway API status of HEAD as the mirror writes it: what changed since the snapshot `since`
 * whose status it wrote (whole without one), and HEAD's snapshot, to name as `since` next time.
 * No status when HEAD's snapshot is `since` (an agent's report, a commit that changed nothing):
 * nothing is read. Undefined before the first generation; a null status for an older layout.
 */
export async function gatewayStatusToWrite(
  env: StatusEnv,
  record: ClusterRecord,
  since: TreeRoot | undefined,
): Promise<{ snapshot: TreeRoot; status?: GatewayApiStatus | GatewayStatusChange | null } | undefined> {
  const current = await readHead(env.store, clusterKeys(record.id))
  if (!current) return undefined
  const { head } = current
  if (since?.sha256 === head.snapshot.sha256) return { snapshot: head.snapshot }
  return { snapshot: head.snapshot, status: await statusSince(env, record, head, since) }
}

/**
 * `GET …/gateway-status?since=`: HEAD's generation and its Gateway API status, what changed since
 * the generation `since` (a forwarder's `--write-status` names the one it wrote last) or whole:
 * without `since`, or for one no longer retained or newer than HEAD (a cluster sent again from
 * nothing). Undefined before the first generation; a null status for an older layout.
 */
export async function gatewayStatusSince(
  env: StatusEnv,
  record: ClusterRecord,
  since: number | undefined,
): Promise<{ generation: number; status: GatewayApiStatus | GatewayStatusChange | null } | undefined> {
  const keys = clusterKeys(record.id)
  const current = await readHead(env.store, keys)
  if (!current) return undefined
  const { head } = current
  const written = since !== undefined && since <= head.generation ? await readGenerationRecord(env.store, keys, since) : undefined
  return { generation: head.generation, status: await statusSince(env, record, head, written?.snapshot) }
}

function statusSince(env: StatusEnv, record: ClusterRecord, head: Head, since: TreeRoot | undefined) {
  const sources = { store: env.store, cluster: record.id, options: optionsOf(record), context: env.caches.for(record.id) }
  return since ? gatewayStatusChangeOfHead(sources, head, env.clock.now(), since) : gatewayStatusOfHead(sources, head, env.clock.now())
}
