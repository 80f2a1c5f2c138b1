import { Hono } from 'hono'
import type { ClusterViewAnswer, FleetAnswer } from '../../../core/api/fleet-answers.ts'
import type { AppEnv } from '../app-env.ts'
import { requireAdmin, type AppVariables } from '../http/auth.ts'
import { backgroundTurn } from '../http/background-turn.ts'
import { fleetViews } from '../services/fleet-views.ts'
import { HttpError } from '../http/http-error.ts'

/**
 * The fleet at a glance, for the admin: every cluster with its generation, when it last changed,
 * what it serves, what it refuses, and each agent with the generation it runs and how far behind.
 */
export function fleetRoutes(env: AppEnv) {
  const routes = new Hono<{ Variables: AppVariables }>()
  const admin = requireAdmin(env)
  const views = fleetViews(env)

  routes.get('/', admin, backgroundTurn, async (c) => {
    const started = performance.now()
    const clusters = await views.all()
    return c.json({ clusters, answeredInMs: Math.round((performance.now() - started) * 10) / 10 } satisfies FleetAnswer)
  })

  routes.get('/:id', admin, backgroundTurn, async (c) => {
    const record = await env.registry.get(c.req.param('id'))
    if (!record) throw new HttpError(404, `no cluster ${c.req.param('id')}`)
    return c.json((await views.one(record)) satisfies ClusterViewAnswer)
  })
  return routes
}
