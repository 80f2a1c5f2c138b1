import { Hono } from 'hono'
import { clusterKeys } from '../../../core/keys/cluster-keys.ts'
import { readHead } from '../../../core/reading/read-head.ts'
import type { AgentReportAnswer, AgentsAnswer } from '../../../core/api/agent-answers.ts'
import { gatewayStatusQuery, type GatewayStatusAnswer } from '../../../core/api/gateway-status-answer.ts'
import type { StatusAnswer } from '../../../core/api/status-answer.ts'
import { generationsBehind } from '../../../core/registry/agent-behind.ts'
import { notifyUrlWarning } from '../../../core/registry/agent-origins.ts'
import { agentReport, podName } from '../../../core/registry/agent-report.ts'
import { agentsOf, recordReport, type StoredReport } from '../services/agent-reports.ts'
import type { AppEnv } from '../app-env.ts'
import type { AppVariables } from '../http/auth.ts'
import { HttpError } from '../http/http-error.ts'
import { currentStatus, gatewayStatusSince } from '../services/current-status.ts'
import { inBackground } from '../http/in-background.ts'
import { readJson, readQuery } from '../http/read-body.ts'

/** Agents report what their HAProxy runs (`POST …/agents/{pod}`); the cluster's status lists them with how far behind each is. */
export function agentRoutes(env: AppEnv) {
  const routes = new Hono<{ Variables: AppVariables }>()

  routes.post('/agents/:pod', async (c) => {
    const pod = c.req.param('pod')
    if (!podName.safeParse(pod).success) throw new HttpError(400, 'must be a pod name (a DNS subdomain)', 'pod')
    const report = await readJson(c.req.raw, 16 * 1024, agentReport)
    const now = env.clock.now()
    const unpushed = report.notifyUrl ? notifyUrlWarning(c.get('record').agentOrigins, report.notifyUrl) : undefined
    const stored: StoredReport = { pod, ...report, reportedAt: now.toISOString(), warnings: unpushed ? [unpushed] : [] }
    await recordReport(env.store, clusterKeys(c.get('record').id).root, stored, now)
    inBackground(c, env.mirror.mirror(c.get('record'), []))
    // Only where pushes come: the key checks nothing else.
    const pushed = report.notifyUrl && !unpushed && report.instance !== undefined && env.pushKeys
    const pushKey = pushed ? pushed.keyFor({ cluster: c.get('record').id, pod, instance: report.instance! }) : undefined
    return c.json({ ...stored, ...(pushKey ? { pushKey } : {}) } satisfies AgentReportAnswer)
  })

  // The HAProxyCfg status as the function would write it: for a forwarder that writes it itself (`--write-status`), and for people.
  routes.get('/status', async (c) => {
    const status = await currentStatus(env, c.get('record'))
    if (!status) throw new HttpError(404, `cluster ${c.get('record').id} has no generation yet: send its objects first`)
    return c.json(status satisfies StatusAnswer, 200, { 'cache-control': 'no-store' })
  })

  // The Gateway API status as the function would write it, likewise, whole or what changed since a generation; no objects for a snapshot of a layout before the Gateway API.
  routes.get('/gateway-status', async (c) => {
    const { since } = readQuery(c.req.query(), gatewayStatusQuery)
    const current = await gatewayStatusSince(env, c.get('record'), since)
    if (current === undefined) throw new HttpError(404, `cluster ${c.get('record').id} has no generation yet: send its objects first`)
    const status = current.status ?? { controllerName: '', objects: [] }
    return c.json({ generation: current.generation, ...status } satisfies GatewayStatusAnswer, 200, { 'cache-control': 'no-store' })
  })

  routes.get('/agents', async (c) => {
    const keys = clusterKeys(c.get('record').id)
    const head = await readHead(env.store, keys)
    const agents = (await agentsOf(env.store, keys.root, env.clock.now())).map((agent) => ({ ...agent, behind: generationsBehind(head?.head, agent) }))
    return c.json({ generation: head?.head.generation ?? null, agents } satisfies AgentsAnswer)
  })
  return routes
}
