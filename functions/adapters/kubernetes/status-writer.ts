import type { KubeConfig } from '@kubernetes/client-node'
import { sha256Text, type HashText } from '../../../core/hash.ts'
import { systemClock, type Clock } from '../../../core/ports/clock.ts'
import type { ClusterWriter } from '../../../core/ports/cluster-writer.ts'
import { gatewayStatusWriter } from './gateway-status-writer.ts'
import { haproxyCfgClient, type HAProxyCfgClient } from './haproxycfg-client.ts'
import { recordRejectionEvents } from './rejection-events.ts'
import { writeStatus } from './write-status.ts'

export const KUBERNETES_WRITER = 'kubernetes'

export interface KubernetesWriterOptions {
  /** The cluster's API server (`kubeConfigFrom(credentials)` makes one without files). */
  kubeConfig: KubeConfig
  /** The cluster's id in hapedge: the resource's `spec.cluster` when it is created, and the Events' reporting instance. */
  cluster: string
  /** The function's base URL, put in `spec.source` when the resource is created. */
  source?: string
  /** Reads before a status write gives up on a resource that keeps changing (default 5). */
  attempts?: number
  /** Events per `recordRejections` call at most (default 20). */
  eventsPerCall?: number
  clock?: Clock
  hash?: HashText
  /** The HAProxyCfg calls; tests wrap the real client to change the resource between a read and a write. */
  client?: HAProxyCfgClient
}

/** The ClusterWriter over a cluster's API server: `HAProxyCfg` and Gateway API status through `/status`, rejections as core/v1 Events. */
export function kubernetesClusterWriter(options: KubernetesWriterOptions): ClusterWriter {
  if (!options.kubeConfig?.getCurrentCluster()) throw new Error(`${KUBERNETES_WRITER}: kubeConfig names no current cluster`)
  if (!options.cluster) throw new Error(`${KUBERNETES_WRITER}: cluster (the hapedge cluster id) is required`)
  const attempts = options.attempts ?? 5
  const eventsPerCall = options.eventsPerCall ?? 20
  if (!Number.isInteger(attempts) || attempts < 1) throw new Error(`${KUBERNETES_WRITER}: attempts must be a positive integer`)
  if (!Number.isInteger(eventsPerCall) || eventsPerCall < 0) throw new Error(`${KUBERNETES_WRITER}: eventsPerCall must be a non-negative integer`)
  const clock = options.clock ?? systemClock
  const client = options.client ?? haproxyCfgClient(options.kubeConfig)
  const spec = { cluster: options.cluster, ...(options.source ? { source: options.source } : {}) }
  return {
    writeStatus: (target, status) => writeStatus(client, target, status, { spec, attempts, clock }),
    writeGatewayStatus: gatewayStatusWriter(options.kubeConfig),
    recordRejections: (rejected, warnings) =>
      recordRejectionEvents(
        options.kubeConfig,
        rejected,
        { instance: options.cluster, limit: eventsPerCall, hash: options.hash ?? sha256Text, now: () => clock.now() },
        warnings,
      ),
  }
}
