import { clusterKeys } from '../../../core/keys/cluster-keys.ts'
import { readHead } from '../../../core/reading/read-head.ts'
import { optionsOf, type ClusterRecord } from '../../../core/registry/cluster-record.ts'
import type { HAProxyCfgStatus } from '../../../core/kube/haproxycfg.ts'
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
