import { Hono } from 'hono'
import { clusterKeys } from '../../../core/commit/cluster-keys.ts'
import { clusterOverview, OverviewCache } from '../../../core/fleet/cluster-overview.ts'
import type { ClusterRecord } from '../../../core/registry/cluster-record.ts'
import { agentSummaries } from '../agent-reports.ts'
import type { AppEnv } from '../app-env.ts'
import { requireAdmin, type AppVariables } from '../auth.ts'
import { HttpError } from '../http-error.ts'
import { lastEventAt } from './last-event.ts'

/** Clusters read at once for the fleet view: enough to hide storage latency, few enough to be gentle on it. */
const CONCURRENCY = 16

/**
 * The fleet at a glance, for the admin: every cluster with its generation, when it last changed,
 * what it serves, what it refuses, and each agent with the generation it runs and how far behind.
 */
export function fleetRoutes(env: AppEnv) {
  const routes = new Hono<{ Variables: AppVariables }>()
  const admin = requireAdmin(env)
  // Keyed by each HEAD's generation, manifest and snapshot: a cluster that did not change costs one HEAD read.
  const overviews = new OverviewCache()

  const clusterView = async (record: ClusterRecord, detail: boolean) => {
    const keys = clusterKeys(record.id)
    const [overview, lastEvent] = await Promise.all([clusterOverview(env.store, record.id, env.caches.for(record.id), overviews), lastEventAt(env.store, keys)])
    const agents = await agentSummaries(env.store, keys.root, overview?.generation ?? null)
    const { rejected = [], ...served } = overview ?? {}
    return {
      id: record.id,
      ingressClass: record.ingressClass,
      removed: record.removedAt !== undefined,
      generation: served.generation ?? null,
      manifest: served.manifest ?? null,
      committedAt: served.committedAt ?? null,
      lastEventAt: lastEvent,
      pinned: served.pinned ?? null,
      counts: { ingresses: 0, hosts: 0, backends: 0, ...served.counts, rejected: rejected.length },
      ...(detail ? { rejected } : {}),
      converged: agents.length > 0 && agents.every((agent) => agent.behind === 0),
      agentsBehind: agents.filter((agent) => agent.behind !== 0).length,
      agents,
    }
  }

  routes.get('/', admin, async (c) => {
    const started = performance.now()
    const records = await env.registry.list()
    const clusters = await mapLimited(records, CONCURRENCY, (record) => clusterView(record, false))
    return c.json({ clusters, answeredInMs: Math.round((performance.now() - started) * 10) / 10 })
  })

  routes.get('/:id', admin, async (c) => {
    const record = await env.registry.get(c.req.param('id'))
    if (!record) throw new HttpError(404, `no cluster ${c.req.param('id')}`)
    return c.json(await clusterView(record, true))
  })
  return routes
}

/** `map` over `items` with at most `limit` calls in flight, results in order. */
async function mapLimited<T, R>(items: readonly T[], limit: number, map: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length)
  let next = 0
  const worker = async () => {
    for (let index = next++; index < items.length; index = next++) results[index] = await map(items[index]!)
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker))
  return results
}
