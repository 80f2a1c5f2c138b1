import { clusterKeys } from '../../../core/keys/cluster-keys.ts'
import { readHead } from '../../../core/reading/read-head.ts'
import { optionsOf, type ClusterRecord } from '../../../core/registry/cluster-record.ts'
import type { HAProxyCfgStatus } from '../../../core/kube/haproxycfg.ts'
import type { GatewayApiStatus } from '../../../core/kube/gateway-status.ts'
import { gatewayStatusOfHead } from '../../../core/status/gateway-status-of-head.ts'
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

/** The Gateway API status of what the cluster's HEAD names now; undefined before the first generation, null for a snapshot of an older layout. */
export async function currentGatewayStatus(
  env: Pick<AppEnv, 'store' | 'caches' | 'clock'>,
  record: ClusterRecord,
): Promise<GatewayApiStatus | null | undefined> {
  const current = await readHead(env.store, clusterKeys(record.id))
  if (!current) return undefined
  return gatewayStatusOfHead(
    { store: env.store, cluster: record.id, options: optionsOf(record), context: env.caches.for(record.id) },
    current.head,
    env.clock.now(),
  )
}
