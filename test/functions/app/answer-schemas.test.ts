import { describe, expect, it } from 'vitest'
import type { z } from 'zod'
import { agentReportAnswer, agentsAnswer } from '../../../core/api/agent-answers.ts'
import { clusterRecordAnswer, clustersAnswer, registeredAnswer, settingsAnswer } from '../../../core/api/cluster-answers.ts'
import { errorBody } from '../../../core/api/error-body.ts'
import { clusterDetailAnswer, fleetAnswer } from '../../../core/api/fleet-answers.ts'
import { headAnswer } from '../../../core/api/head-answer.ts'
import { diffAnswer, historyAnswer, movedAnswer } from '../../../core/api/history-answers.ts'
import { resyncBegunAnswer, resyncFinishAnswer, resyncPageAnswer } from '../../../core/api/resync-answers.ts'
import { routesAnswer } from '../../../core/api/routes-answer.ts'
import { gatewayStatusAnswer } from '../../../core/api/gateway-status-answer.ts'
import { statusAnswer } from '../../../core/api/status-answer.ts'
import { auditAnswer, writeAnswer } from '../../../core/api/write-answer.ts'
import { app } from '../../support/contracts/cluster-apps.ts'
import { ADMIN, harness } from './app-harness.ts'

const put = (object: unknown) => ({ type: 'MODIFIED', object })

/** The body of a real answer, parsed by the schema the clients read it with (a failure names the field). */
async function parsed<Schema extends z.ZodType>(schema: Schema, answer: Response, status = 200): Promise<z.infer<Schema>> {
  expect(answer.status).toBe(status)
  const result = schema.safeParse(await answer.json())
  expect(result.error?.issues ?? []).toEqual([])
  return result.data as z.infer<Schema>
}

describe('the answers of the HTTP API parse with the schemas in core/api/', () => {
  it('every answer kind, as the app gives it', async () => {
    const h = harness()
    const token = await h.register('prod')
    const objects = [...app(1, ['/', '/api']), ...app(2, ['/'])]

    const written = await parsed(writeAnswer, await h.events('prod', token, objects.map(put)))
    expect(written).toMatchObject({ generation: 1, committed: true })

    const resynced = await parsed(
      writeAnswer,
      await h.call('PUT', '/v1/clusters/prod/objects', token, { apiVersion: 'v1', kind: 'List', metadata: {}, items: objects }),
    )
    expect(resynced.generation).not.toBeNull()

    const audited = await parsed(
      auditAnswer,
      await h.call('POST', '/v1/clusters/prod/audit', token, { apiVersion: 'audit.k8s.io/v1', kind: 'EventList', items: [{}] }),
    )
    expect(audited.problems).not.toEqual([])

    const head = await parsed(headAnswer, await h.call('GET', '/v1/clusters/prod/head', token))
    expect(head.blobs).toBeUndefined()
    const delta = await parsed(headAnswer, await h.call('GET', `/v1/clusters/prod/head?have=${head.manifest}`, token))
    expect(delta.blobs).toEqual({})

    const report = {
      generation: head.generation,
      manifest: head.manifest,
      applied: 'reload',
      appliedAt: new Date(0).toISOString(),
      lastError: null,
      notifyUrl: 'https://pod.example.com',
    }
    const reported = await parsed(agentReportAnswer, await h.call('POST', '/v1/clusters/prod/agents/haproxy-0', token, report))
    expect(reported.warnings).not.toEqual([])
    const agents = await parsed(agentsAnswer, await h.call('GET', '/v1/clusters/prod/agents', token))
    expect(agents.agents.map((agent) => agent.behind)).toEqual([0])

    await parsed(statusAnswer, await h.call('GET', '/v1/clusters/prod/status', token))
    await parsed(gatewayStatusAnswer, await h.call('GET', '/v1/clusters/prod/gateway-status', token))
    const routes = await parsed(routesAnswer, await h.call('GET', '/v1/clusters/prod/routes', token))
    expect(routes.routes).not.toEqual([])

    const refused = await parsed(errorBody, await h.call('GET', '/v1/clusters/prod/head?have=nope', token), 400)
    expect(refused.error.path).toBe('have')

    const begun = await parsed(resyncBegunAnswer, await h.call('POST', '/v1/clusters/prod/resync', token), 201)
    const page = await parsed(
      resyncPageAnswer,
      await h.call('PUT', `/v1/clusters/prod/resync/${begun.session}/pages/0`, token, { apiVersion: 'v1', kind: 'List', items: objects }),
    )
    expect(page.items).toBe(objects.length)
    const finished = await parsed(resyncFinishAnswer, await h.call('POST', `/v1/clusters/prod/resync/${begun.session}/finish`, token, { pages: 1 }))
    expect(finished.done).toBe(true)
  })

  it('every admin answer kind, from a cluster with history, a rollback and a release', async () => {
    const h = harness()
    const registered = await parsed(registeredAnswer, await h.call('POST', '/v1/clusters', ADMIN, { id: 'prod' }), 201)
    const token = registered.token
    await h.events('prod', token, [...app(1), ...app(2)].map(put))
    await h.events('prod', token, [put(app(2, ['/', '/v2'])[0])])
    await h.call('POST', '/v1/clusters/prod/agents/haproxy-0', token, { generation: 1, manifest: null, applied: 'reload', appliedAt: null, lastError: null })

    const listed = await parsed(clustersAnswer, await h.call('GET', '/v1/clusters', ADMIN))
    expect(listed.clusters.map((cluster) => cluster.agents.length)).toEqual([1])
    await parsed(clusterRecordAnswer, await h.call('GET', '/v1/clusters/prod', ADMIN))
    const changed = await parsed(settingsAnswer, await h.call('PATCH', '/v1/clusters/prod', ADMIN, { retention: { generations: 10 } }))
    expect(changed.retention).toEqual({ generations: 10 })

    const rolled = await parsed(movedAnswer, await h.call('POST', '/v1/clusters/prod/rollback', ADMIN, { generation: 1 }))
    expect(rolled.pinned).not.toBeNull()
    await h.events('prod', token, app(3).map(put))
    const fleet = await parsed(fleetAnswer, await h.call('GET', '/v1/fleet', ADMIN))
    expect(fleet.clusters.map((cluster) => cluster.pinned?.held)).toEqual([1])
    await parsed(clusterDetailAnswer, await h.call('GET', '/v1/fleet/prod', ADMIN))
    const released = await parsed(movedAnswer, await h.call('POST', '/v1/clusters/prod/release', ADMIN))
    expect(released.pinned).toBeNull()

    const history = await parsed(historyAnswer, await h.call('GET', '/v1/clusters/prod/generations', ADMIN))
    expect(history.generations.map((generation) => generation.origin?.kind ?? null)).toContain('rollback')
    expect(history.generations.map((generation) => generation.origin)).toContain(null)
    const diff = await parsed(diffAnswer, await h.call('GET', `/v1/clusters/prod/diff?from=1&to=${released.generation}`, ADMIN))
    expect(diff.routes).not.toEqual([])

    await parsed(registeredAnswer, await h.call('POST', '/v1/clusters/prod/token', ADMIN))
    const removed = await parsed(clusterRecordAnswer, await h.call('DELETE', '/v1/clusters/prod', ADMIN))
    expect(removed.removedAt).toBeDefined()
  })
})
