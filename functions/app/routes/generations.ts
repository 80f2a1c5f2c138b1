import { Hono, type Context } from 'hono'
import { readHead } from '../../../core/commit/read-head.ts'
import { clusterKeys } from '../../../core/commit/cluster-keys.ts'
import { release, rollback, type Moved, type PinContext } from '../../../core/commit/pin.ts'
import { diffQuery, historyQuery, rollbackRequest } from '../../../core/fleet/fleet-requests.ts'
import { generationDiff } from '../../../core/fleet/generation-diff.ts'
import { generationHistory } from '../../../core/fleet/generation-history.ts'
import type { ClusterRecord } from '../../../core/registry/cluster-record.ts'
import type { AppEnv } from '../app-env.ts'
import { requireAdmin, type AppVariables } from '../auth.ts'
import { HttpError } from '../http-error.ts'
import { inBackground } from '../in-background.ts'
import { readJson, readOptionalJson, readQuery } from '../read-body.ts'

const BODY_BYTES = 4 * 1024

/**
 * A cluster's history, for the admin: its retained generations, the difference between any
 * two, and rollback (which pins the cluster) and release. Mounted before the clusters' own
 * routes, so only the admin token opens them.
 */
export function generationRoutes(env: AppEnv) {
  const routes = new Hono<{ Variables: AppVariables }>()
  const admin = requireAdmin(env)

  const clusterOf = async (id: string): Promise<ClusterRecord> => {
    const record = await env.registry.get(id)
    if (!record || record.removedAt !== undefined) throw new HttpError(404, `no cluster ${id}`)
    return record
  }
  const pinContext = (record: ClusterRecord): PinContext => ({ store: env.store, cluster: record.id, context: env.caches.for(record.id), clock: env.clock })

  routes.get('/:id/generations', admin, async (c) => {
    const record = await clusterOf(c.req.param('id'))
    const page = readQuery(c.req.query(), historyQuery)
    const head = await readHead(env.store, clusterKeys(record.id))
    const pin = head?.head.pin
    return c.json({ current: head?.head.generation ?? null, pinned: pin ? { generation: pin.generation, since: pin.since, held: pin.held } : null, ...(await generationHistory(env.store, record.id, page)) })
  })

  routes.get('/:id/diff', admin, async (c) => {
    const record = await clusterOf(c.req.param('id'))
    const { from, to } = readQuery(c.req.query(), diffQuery)
    const current = to ?? (await readHead(env.store, clusterKeys(record.id)))?.head.generation
    if (current === undefined) throw new HttpError(404, `cluster ${record.id} has no generation yet`)
    return c.json(await generationDiff(env.store, record.id, env.caches.for(record.id), from, current))
  })

  /** Answers what moved, and tells the agents and the cluster's status as a commit does. */
  const moved = (c: Context, record: ClusterRecord, result: Moved) => {
    const { head } = result
    if (result.changed) inBackground(c, env.push.push(record, { generation: head.generation, manifest: head.manifest }))
    inBackground(c, env.mirror.mirror(record, []))
    const pin = head.pin ? { generation: head.pin.generation, since: head.pin.since, held: head.pin.held } : null
    return c.json({ generation: head.generation, manifest: head.manifest, changed: result.changed, files: result.files, reload: result.plan.reload, reasons: result.plan.reasons, pinned: pin, warnings: result.warnings })
  }

  routes.post('/:id/rollback', admin, async (c) => {
    const record = await clusterOf(c.req.param('id'))
    const { generation } = await readJson(c.req.raw, BODY_BYTES, rollbackRequest)
    const result = await rollback(pinContext(record), generation)
    env.metrics.count('hapedge_rollbacks_total', 'Rollbacks, by cluster.', { cluster: record.id })
    return moved(c, record, result)
  })

  routes.post('/:id/release', admin, async (c) => {
    const record = await clusterOf(c.req.param('id'))
    await readOptionalJson(c.req.raw, BODY_BYTES, rollbackRequest.pick({}))
    return moved(c, record, await release(pinContext(record)))
  })
  return routes
}
