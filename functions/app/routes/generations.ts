import { Hono } from 'hono'
import type { DiffAnswer, HistoryAnswer, MovedAnswer } from '../../../core/api/history-answers.ts'
import { pinSummary } from '../../../core/reading/head.ts'
import { readHead } from '../../../core/reading/read-head.ts'
import { clusterKeys } from '../../../core/keys/cluster-keys.ts'
import type { Moved } from '../../../core/commit/pin.ts'
import { diffQuery, historyQuery, rollbackRequest } from '../../../core/fleet/fleet-requests.ts'
import { generationDiff } from '../../../core/fleet/generation-diff.ts'
import { generationHistory } from '../../../core/fleet/generation-history.ts'
import type { AppEnv } from '../app-env.ts'
import { requireAdmin, type AppVariables } from '../http/auth.ts'
import { backgroundTurn } from '../http/background-turn.ts'
import { HttpError } from '../http/http-error.ts'
import { liveCluster, pinActions } from '../services/pin-actions.ts'
import { readJson, readOptionalJson, readQuery } from '../http/read-body.ts'

const BODY_BYTES = 4 * 1024

/**
 * A cluster's history, for the admin: its retained generations, the difference between any
 * two, and rollback (which pins the cluster) and release. Mounted before the clusters' own
 * routes, so only the admin token opens them.
 */
export function generationRoutes(env: AppEnv) {
  const routes = new Hono<{ Variables: AppVariables }>()
  const admin = requireAdmin(env)
  const actions = pinActions(env)
  const clusterOf = (id: string) => liveCluster(env, id)

  routes.get('/:id/generations', admin, backgroundTurn, async (c) => {
    const record = await clusterOf(c.req.param('id'))
    const page = readQuery(c.req.query(), historyQuery)
    const head = await readHead(env.store, clusterKeys(record.id))
    return c.json({
      current: head?.head.generation ?? null,
      pinned: pinSummary(head?.head),
      ...(await generationHistory(env.store, record.id, env.caches.for(record.id), page)),
    } satisfies HistoryAnswer)
  })

  routes.get('/:id/diff', admin, backgroundTurn, async (c) => {
    const record = await clusterOf(c.req.param('id'))
    const { from, to } = readQuery(c.req.query(), diffQuery)
    const current = to ?? (await readHead(env.store, clusterKeys(record.id)))?.head.generation
    if (current === undefined) throw new HttpError(404, `cluster ${record.id} has no generation yet`)
    return c.json((await generationDiff(env.store, record.id, env.caches.for(record.id), from, current)) satisfies DiffAnswer)
  })

  /** What moved, as the JSON API answers it. */
  const answer = ({ head, changed, files, plan, warnings }: Moved): MovedAnswer => {
    return {
      generation: head.generation,
      manifest: head.manifest,
      changed,
      files,
      reload: plan.reload,
      reasons: plan.reasons,
      pinned: pinSummary(head),
      warnings,
    }
  }

  routes.post('/:id/rollback', admin, async (c) => {
    const record = await clusterOf(c.req.param('id'))
    const { generation } = await readJson(c.req.raw, BODY_BYTES, rollbackRequest)
    return c.json(answer(await actions.rollback(c, record, generation)))
  })

  routes.post('/:id/release', admin, async (c) => {
    const record = await clusterOf(c.req.param('id'))
    await readOptionalJson(c.req.raw, BODY_BYTES, rollbackRequest.pick({}))
    return c.json(answer(await actions.release(c, record)))
  })
  return routes
}
