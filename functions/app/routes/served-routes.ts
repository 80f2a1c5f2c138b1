import { Hono } from 'hono'
import { clusterKeys } from '../../../core/keys/cluster-keys.ts'
import { NodeLoader } from '../../../core/reading/node-loader.ts'
import { readHead } from '../../../core/reading/read-head.ts'
import { runLoading } from '../../../core/reading/run-loading.ts'
import { clusterRoutes } from '../../../core/fleet/cluster-routes.ts'
import type { RoutesAnswer } from '../../../core/api/routes-answer.ts'
import { routesQuery } from '../../../core/fleet/fleet-requests.ts'
import { SNAPSHOT_SHAPE } from '../../../core/snapshot/keyspace.ts'
import { Tree } from '../../../core/tree/tree.ts'
import type { AppEnv } from '../app-env.ts'
import type { AppVariables } from '../http/auth.ts'
import { HttpError } from '../http/http-error.ts'
import { readQuery } from '../http/read-body.ts'

/** `GET /v1/clusters/{id}/routes`: every host and path the current generation serves, with its backend and servers, in pages. */
export function servedRoutes(env: AppEnv) {
  const routes = new Hono<{ Variables: AppVariables }>()
  routes.get('/routes', async (c) => {
    const cluster = c.get('record').id
    const query = readQuery(c.req.query(), routesQuery)
    const keys = clusterKeys(cluster)
    const current = await readHead(env.store, keys)
    if (!current) throw new HttpError(404, `cluster ${cluster} has no generation yet: send its objects first`)
    const context = env.caches.for(cluster)
    const snapshot = new Tree(SNAPSHOT_SHAPE, current.head.snapshot, context)
    const page = await runLoading(() => clusterRoutes(snapshot, query), new NodeLoader(env.store, keys, context))
    return c.json({ generation: current.head.generation, manifest: current.head.manifest, ...page } satisfies RoutesAnswer, 200, {
      'cache-control': 'no-store',
    })
  })
  return routes
}
