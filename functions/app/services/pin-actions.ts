import type { Context } from 'hono'
import { release, rollback, type Moved, type PinContext } from '../../../core/commit/pin.ts'
import type { ClusterRecord } from '../../../core/registry/cluster-record.ts'
import type { AppEnv } from '../app-env.ts'
import { HttpError } from '../http/http-error.ts'
import { inBackground } from '../http/in-background.ts'

/** A registered cluster that is not removed, or 404: what the admin's history and actions work on. */
export async function liveCluster(env: AppEnv, id: string): Promise<ClusterRecord> {
  const record = await env.registry.get(id)
  if (!record || record.removedAt !== undefined) throw new HttpError(404, `no cluster ${id}`)
  return record
}

/**
 * Rollback and release as the admin asks for them (the JSON API and the page's forms): each
 * moves HEAD, then tells the agents and the cluster's status as a commit does.
 */
export function pinActions(env: AppEnv) {
  const pinContext = (record: ClusterRecord): PinContext => ({ store: env.store, cluster: record.id, context: env.caches.for(record.id), clock: env.clock })

  const announce = (c: Context, record: ClusterRecord, result: Moved): Moved => {
    const { head } = result
    if (result.changed) inBackground(c, env.push.push(record, { generation: head.generation, manifest: head.manifest }))
    inBackground(c, env.mirror.mirror(record, []))
    return result
  }

  return {
    rollback: async (c: Context, record: ClusterRecord, generation: number): Promise<Moved> => {
      const result = await rollback(pinContext(record), generation)
      env.metrics.count('hapedge_rollbacks_total', 'Rollbacks, by cluster.', { cluster: record.id })
      return announce(c, record, result)
    },
    release: async (c: Context, record: ClusterRecord): Promise<Moved> => announce(c, record, await release(pinContext(record))),
  }
}
