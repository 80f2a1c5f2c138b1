import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApp } from '../../functions/app/app.ts'
import { buildEnv } from '../../functions/platforms/composition/build-env.ts'
import { kubernetesWriters } from '../../functions/adapters/kubernetes/cluster-writers.ts'
import { createMemoryStore } from '../../functions/adapters/storage/memory-store.ts'
import { sha256Text } from '../../core/hash.ts'
import type { HAProxyCfgStatus } from '../../core/kube/haproxycfg.ts'
import { app as objectsOf } from '../support/contracts/cluster-apps.ts'
import { eventually } from '../support/eventually.ts'
import { gateway, gatewayClass, httpRoute } from '../support/gateway-objects.ts'
import { GATEWAY_API_RESOURCES } from '../support/kube-api/resources.ts'
import { startKubeApiDouble, type KubeApiDouble } from '../support/kube-api-double.ts'
import { ingress } from '../support/objects.ts'

const ADMIN = 'admin-token-for-mirror-tests-0123'
const SECRET = 'deployment-secret-for-the-mirror-tests-0123456789'
const put = (object: unknown) => ({ type: 'MODIFIED', object })

/**
 * The function writing into a cluster through its API server (the double, over HTTPS with its
 * own CA and a bearer token): credentials given once at registration and stored sealed, the
 * `HAProxyCfg` status after each write and each agent report, Events for rejected Ingresses, and
 * failures that leave the commit alone, show in `/metrics`, and are repaired by the next write.
 */
describe('the function mirrors each commit into the cluster', () => {
  let double: KubeApiDouble
  const store = createMemoryStore()
  const app = createApp(buildEnv({ store, adminToken: ADMIN, hash: sha256Text, secrets: { current: SECRET }, writers: kubernetesWriters }))
  const call = (method: string, path: string, token: string, body?: unknown) =>
    app.request(path, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    })
  const resource = () => double.find({ apiVersion: 'hapedge.io/v1alpha1', kind: 'HAProxyCfg', metadata: { namespace: 'hapedge', name: 'prod' } })
  const status = () => resource()?.status as HAProxyCfgStatus | undefined
  // Its series are per cluster, which only the admin token is shown.
  const metrics = async () => (await call('GET', '/metrics', ADMIN)).text()
  let token: string

  beforeAll(async () => {
    double = await startKubeApiDouble({ resources: GATEWAY_API_RESOURCES })
    const registered = await call('POST', '/v1/clusters', ADMIN, {
      id: 'prod',
      kubernetes: { server: double.url, token: double.token, caData: Buffer.from(double.caPem).toString('base64') },
    })
    expect(registered.status).toBe(201)
    const body = (await registered.json()) as { token: string; kubernetes: unknown }
    expect(body.kubernetes).toEqual({ server: double.url, resource: { namespace: 'hapedge', name: 'prod' } })
    token = body.token
  })
  afterAll(() => double?.stop())

  it('keeps the API server token sealed: not in any stored object, not in the admin listing', async () => {
    for await (const object of store.list('')) expect(new TextDecoder().decode((await store.get(object.key))!.body)).not.toContain(double.token)
    expect(await (await call('GET', '/v1/clusters', ADMIN)).text()).not.toContain(double.token)
  })

  it('writes the status of each committed generation, and a Warning Event for a rejected Ingress', async () => {
    const bad = ingress({
      name: 'bad',
      rules: [{ host: 'bad.example.com', paths: [{ path: '/', service: 'missing', port: 'nope' }] }],
      annotations: { 'nginx.ingress.kubernetes.io/enable-modsecurity': 'true' },
    })
    const answer = (await (await call('POST', '/v1/clusters/prod/events', token, { events: [...objectsOf(1), bad].map(put) })).json()) as {
      generation: number
      manifest: string
      rejected: { object: string }[]
    }
    expect(answer.rejected.map((rejection) => rejection.object)).toEqual(['Ingress default/bad'])
    await eventually('the status of the generation', () => status()?.generation === answer.generation)
    expect(status()).toMatchObject({ manifest: answer.manifest, rejected: [expect.objectContaining({ object: 'Ingress default/bad' })] })
    expect(status()!.files.length).toBeGreaterThan(2)
    const events = await eventually('the Event', () =>
      double.list('v1', 'Event', 'default').find((event) => (event as { involvedObject?: { name?: string } }).involvedObject?.name === 'bad'),
    )
    expect(events).toMatchObject({ type: 'Warning', reason: 'Rejected' })
    expect(await metrics()).toMatch(/hapedge_status_writes_total\{cluster="prod",outcome="written"\} \d+/)
  })

  it('shows each agent’s generation once it reports', async () => {
    const head = (await (await call('GET', '/v1/clusters/prod/head', token)).json()) as { generation: number; manifest: string }
    const report = { generation: head.generation, manifest: head.manifest, applied: 'runtime', appliedAt: new Date().toISOString(), lastError: null }
    expect((await call('POST', '/v1/clusters/prod/agents/haproxy-0', token, report)).status).toBe(200)
    await eventually('the pod in the status', () => status()?.pods.find((pod) => pod.pod === 'haproxy-0' && pod.generation === head.generation))
  })

  it('commits even when the API server refuses, counts the failure, and the next write repairs the status', async () => {
    // The cluster stops honouring the token: the double now expects another.
    const granted = double.token
    ;(double as { token: string }).token = 'rotated-away'
    const answer = (await (await call('POST', '/v1/clusters/prod/events', token, { events: objectsOf(2).map(put) })).json()) as { generation: number }
    expect(answer.generation).toBeGreaterThan(1)
    await eventually('the failure counted', async () => /hapedge_status_writes_total\{cluster="prod",outcome="failed"\} [1-9]/.test(await metrics()))
    expect(status()!.generation).toBeLessThan(answer.generation)
    ;(double as { token: string }).token = granted
    await call('POST', '/v1/clusters/prod/events', token, { events: objectsOf(2).map(put) })
    await eventually('the status repaired by a write that changed nothing', () => status()?.generation === answer.generation)
  })

  it('writes the Gateway API’s status of what it committed, into each object’s /status', async () => {
    const objects = [gatewayClass(), gateway('edge', [{ name: 'http' }]), httpRoute({ name: 'shop', rules: [{ backends: [{ service: 'app-1' }] }] })]
    for (const object of objects) double.put(object)
    expect((await call('POST', '/v1/clusters/prod/events', token, { events: objects.map(put) })).status).toBe(200)
    const parents = await eventually('the route’s parents', () => (double.find(objects[2]!)?.status as { parents?: unknown[] } | undefined)?.parents)
    expect(parents).toMatchObject([
      {
        parentRef: { name: 'edge' },
        conditions: [
          { type: 'Accepted', status: 'True' },
          { type: 'ResolvedRefs', status: 'True' },
        ],
      },
    ])
    // The Gateway comes last, once its routes are counted.
    const edge = await eventually('the Gateway’s status', () => double.find(objects[1]!)?.status)
    expect(edge).toMatchObject({ listeners: [{ name: 'http', attachedRoutes: 1 }] })
    expect(double.find(objects[0]!)?.status).toMatchObject({ conditions: [{ type: 'Accepted', status: 'True', reason: 'Accepted' }] })
    // The writer counts a write once the API server has answered it, after the double has stored it.
    const written = /hapedge_gateway_status_writes_total\{cluster="prod",outcome="written"\} (\d+)/
    expect(await eventually('the third write counted', async () => (await metrics()).match(written)?.[1] === '3')).toBe(true)
  })
  it('carries on in a new process: after a restart it writes what changed since the generation written, not every object', async () => {
    const restarted = createApp(buildEnv({ store, adminToken: ADMIN, hash: sha256Text, secrets: { current: SECRET }, writers: kubernetesWriters }))
    const route = httpRoute({ name: 'shop', rules: [{ backends: [{ service: 'gone' }] }] })
    double.put(route)
    const posted = await restarted.request('/v1/clusters/prod/events', {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ events: [put(route)] }),
    })
    expect(posted.status).toBe(200)
    const resolved = () => (double.find(route)?.status as { parents?: { conditions: { type: string; reason: string }[] }[] } | undefined)?.parents?.[0]
    await eventually('the route’s BackendNotFound written', () => resolved()?.conditions.some((condition) => condition.reason === 'BackendNotFound'))
    const counted = async () => (await restarted.request('/metrics', { headers: { authorization: `Bearer ${ADMIN}` } })).text()
    const series = await eventually('the write counted', async () => {
      const text = await counted()
      return /hapedge_gateway_status_writes_total\{cluster="prod",outcome="written"\} 1/.test(text) ? text : undefined
    })
    // Whole, it would have read the GatewayClass and the Gateway again and counted them unchanged.
    expect(series).not.toMatch(/hapedge_gateway_status_writes_total\{cluster="prod",outcome="unchanged"\}/)
  })
})
