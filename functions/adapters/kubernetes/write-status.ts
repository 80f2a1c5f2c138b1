import type { Clock } from '../../../core/ports/clock.ts'
import type { StatusWriteResult } from '../../../core/ports/cluster-writer.ts'
import type { HAProxyCfgSpec, HAProxyCfgStatus, ResourceTarget } from '../../../core/kube/haproxycfg.ts'
import { canonicalJson } from '../../../core/status/canonical-json.ts'
import { carryConditions } from '../../../core/status/status-conditions.ts'
import type { HAProxyCfgClient } from './haproxycfg-client.ts'
import { isConflict, isNotFound, kubeFailure, type KubeFailure } from './kube-errors.ts'

export interface WriteStatusOptions {
  /** The spec a missing resource is created with. */
  spec: HAProxyCfgSpec
  /** Reads (and writes) before giving up on a resource that keeps changing under us. */
  attempts: number
  clock: Clock
}

/**
 * Read, decide, patch with the resourceVersion read: a write by anyone in between makes the
 * patch 409, and the next attempt decides again on a fresh read. So a stale writer can never
 * overwrite a later generation, even one written between its read and its patch.
 */
export async function writeStatus(
  client: HAProxyCfgClient,
  target: ResourceTarget,
  status: HAProxyCfgStatus,
  options: WriteStatusOptions,
): Promise<StatusWriteResult> {
  const { generation } = status
  let created = false
  let lastConflict: KubeFailure | undefined
  for (let attempt = 1; attempt <= options.attempts; attempt++) {
    try {
      let current = await client.get(target)
      if (!current) {
        current = await client.create(target, options.spec)
        created = true
      }
      const shown = current.status?.generation
      if (typeof shown === 'number' && shown > generation) return { outcome: 'stale', generation, current: shown, attempts: attempt }
      const next = carryConditions(status, current.status?.conditions, current.metadata.generation ?? 1)
      if (current.status && canonicalJson(current.status) === canonicalJson(next)) return { outcome: 'unchanged', generation, attempts: attempt }
      await client.patchStatus(target, current.metadata.resourceVersion ?? '', next)
      return { outcome: 'written', generation, attempts: attempt, created }
    } catch (error) {
      // 409: written since our read, or created by someone else first; 404: deleted since our read. Either way, read again.
      if (!isConflict(error) && !isNotFound(error)) return { outcome: 'failed', generation, attempts: attempt, ...failure(kubeFailure(error)) }
      lastConflict = kubeFailure(error)
      if (attempt < options.attempts) await options.clock.sleep(10 * attempt * (0.5 + options.clock.random()))
    }
  }
  return {
    outcome: 'failed',
    generation,
    attempts: options.attempts,
    ...failure({ code: lastConflict?.code, message: `still changing under us after ${options.attempts} attempts (${lastConflict?.message})` }),
  }
}

function failure({ code, message }: KubeFailure): { error: string; code?: number } {
  return code === undefined ? { error: message } : { error: message, code }
}
