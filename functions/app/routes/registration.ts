import { Hono } from 'hono'
import type { ClustersAnswer, RegisteredAnswer } from '../../../core/api/cluster-answers.ts'
import { clusterKeys } from '../../../core/keys/cluster-keys.ts'
import { readHead } from '../../../core/reading/read-head.ts'
import { clusterRegistration, publicRecord } from '../../../core/registry/cluster-record.ts'
import { sealAccess } from '../../../core/registry/kubernetes-access.ts'
import { gatewayPortsClash } from '../../../core/model/gateway-port-setting.ts'
import type { AppEnv } from '../app-env.ts'
import { requireAdmin, type AppVariables } from '../http/auth.ts'
import { HttpError } from '../http/http-error.ts'
import { readJson } from '../http/read-body.ts'
import { agentSummaries } from '../services/agent-reports.ts'
import { lastEventAt } from '../services/last-event.ts'

/** `POST /v1/clusters` registers a cluster (its token is shown once); `GET /v1/clusters` lists them. */
export function registrationRoutes(env: AppEnv) {
  const routes = new Hono<{ Variables: AppVariables }>()
  // Per route, not `use('*')`: mounted at /v1/clusters, a wildcard would also guard the clusters' own routes.
  const admin = requireAdmin(env)

  routes.post('/', admin, async (c) => {
    const { kubernetes, ...registration } = await readJson(c.req.raw, 128 * 1024, clusterRegistration)
    const clash = gatewayPortsClash(registration)
    if (clash) throw new HttpError(400, clash, 'gatewayPorts')
    if (kubernetes && !env.sealer)
      throw new HttpError(400, 'this deployment has no HAPEDGE_SECRET, so API server credentials cannot be stored sealed', 'kubernetes')
    const dataKey = env.sealer && (await env.sealer.createClusterKey())
    const access = kubernetes && (await sealAccess(env.sealer!, dataKey!, registration.id, kubernetes))
    const registered = await env.registry.register({ ...registration, ...(dataKey ? { dataKey } : {}), ...(access ? { kubernetes: access } : {}) })
    if (!registered) {
      const removed = (await env.registry.get(registration.id))?.purgeAfter
      throw new HttpError(
        409,
        removed
          ? `cluster ${registration.id} was removed; its id can be registered again once its data is purged after ${removed}`
          : `cluster ${registration.id} is already registered`,
        'id',
      )
    }
    return c.json({ ...publicRecord(registered.record), token: registered.token } satisfies RegisteredAnswer, 201)
  })

  routes.get('/', admin, async (c) => {
    const records = await env.registry.list()
    const clusters = await Promise.all(
      records.map(async (stored) => {
        const record = publicRecord(stored)
        const keys = clusterKeys(record.id)
        const head = await readHead(env.store, keys)
        const generation = head?.head.generation ?? null
        const agents = await agentSummaries(env.store, keys.root, head?.head ?? null, env.clock.now())
        return { ...record, generation, lastEventAt: await lastEventAt(env.store, keys), agents }
      }),
    )
    return c.json({ clusters } satisfies ClustersAnswer)
  })
  return routes
}
