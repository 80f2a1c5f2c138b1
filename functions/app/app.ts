import { Hono } from 'hono'
import { CommitContention, NotPinned } from '../../core/commit/errors.ts'
import { CorruptObject, UnknownGeneration } from '../../core/reading/errors.ts'
import { StorageError } from '../../core/ports/object-store.ts'
import type { AppEnv } from './app-env.ts'
import { requireCluster, showsAdmin, type AppVariables } from './http/auth.ts'
import { HttpError } from './http/http-error.ts'
import { agentRoutes } from './routes/agents.ts'
import { clusterAdminRoutes } from './routes/cluster-admin.ts'
import { contentRoutes } from './routes/content.ts'
import { fleetPage } from './fleet-page/index.ts'
import { fleetRoutes } from './routes/fleet.ts'
import { generationRoutes } from './routes/generations.ts'
import { ingestionRoutes } from './routes/ingestion.ts'
import { landingRoutes } from './routes/landing.tsx'
import { registrationRoutes } from './routes/registration.ts'
import { resyncSessionRoutes } from './routes/resync-sessions.ts'
import { servedRoutes } from './routes/served-routes.ts'

/**
 * The one HTTP app every platform runs (Node server, Cloudflare Worker, AWS Lambda): the routes
 * of the design's Interfaces table, JSON in and out, errors as `{"error": {"message", "path"}}`.
 */
export function createApp(env: AppEnv) {
  const app = new Hono<{ Variables: AppVariables }>()

  app.use('*', async (c, next) => {
    const started = performance.now()
    await next()
    const route = c.req.routePath
    env.metrics.observe(route, (performance.now() - started) / 1000)
    env.metrics.count('hapedge_requests_total', 'Requests, by route and status.', { route, status: String(c.res.status) })
  })

  // Every request holds the foreground while it is served, unless it steps into the background: a resync's slices wait for it (see Turns).
  app.use('*', async (c, next) => {
    const turn = env.turns.request()
    c.set('turn', turn)
    try {
      await next()
    } finally {
      turn.end()
    }
  })

  app.route('/', landingRoutes())
  app.get('/healthz', (c) => c.json({ ok: true }))
  // Per-cluster series name every cluster: the admin's only; anyone else gets the deployment's totals.
  app.get('/metrics', (c) => c.text(env.metrics.render({ perCluster: showsAdmin(env, c) }), 200, { 'content-type': 'text/plain; version=0.0.4' }))
  app.route('/v1/clusters', registrationRoutes(env))
  app.route('/v1/clusters', clusterAdminRoutes(env))
  app.route('/v1/clusters', generationRoutes(env))
  app.route('/v1/fleet', fleetRoutes(env))
  app.route('/fleet', fleetPage(env))
  app.use('/v1/clusters/:id/*', requireCluster(env))
  app.route('/v1/clusters/:id', ingestionRoutes(env))
  app.route('/v1/clusters/:id', resyncSessionRoutes(env))
  app.route('/v1/clusters/:id', contentRoutes(env))
  app.route('/v1/clusters/:id', agentRoutes(env))
  app.route('/v1/clusters/:id', servedRoutes(env))

  app.notFound((c) => c.json(new HttpError(404, `no route ${c.req.method} ${c.req.path}`).toJSON(), 404))
  app.onError((error, c) => {
    const failure = asHttpError(error)
    if (failure.status >= 500 && !(error instanceof CommitContention)) console.error(error)
    const headers: Record<string, string> = failure.retryAfterSeconds ? { 'retry-after': String(failure.retryAfterSeconds) } : {}
    return c.json(failure.toJSON(), failure.status, headers)
  })
  return app
}

/** What each failure means to a client: bad input, credentials, contention (retry), storage (retry), corruption. */
function asHttpError(error: unknown): HttpError {
  if (error instanceof HttpError) return error
  if (error instanceof CommitContention) return new HttpError(503, error.message, undefined, error.retryAfterSeconds)
  if (error instanceof StorageError) return new HttpError(503, error.message, undefined, 2)
  if (error instanceof UnknownGeneration) return new HttpError(404, error.message, 'generation')
  if (error instanceof NotPinned) return new HttpError(409, error.message)
  if (error instanceof CorruptObject) return new HttpError(500, `refused to use a stored object: ${error.message}`)
  return new HttpError(500, 'internal error')
}
