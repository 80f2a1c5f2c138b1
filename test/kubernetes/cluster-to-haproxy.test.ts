import { spawn, type ChildProcess } from 'node:child_process'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { HAProxyCfgStatus } from '../../core/kube/haproxycfg.ts'
import { answeredBy } from '../integration/serve-cluster.ts'
import { startEdgeStack, type EdgeStack } from '../support/edge-stack.ts'
import { eventually } from '../support/eventually.ts'
import { request } from '../support/http-client.ts'
import { startKubeApiDouble, type KubeApiDouble, type KubeObject } from '../support/kube-api-double.ts'
import { endpointSlice, ingress, service } from '../support/objects.ts'
import { projectRoot } from '../support/run-cli.ts'

const SECRET = 'deployment-secret-for-the-end-to-end-test-0123456789'

/**
 * The whole path, each part real but the API server (a double speaking its protocol): objects
 * change in the cluster → `hapedge forward` → `hapedge serve` commits → it writes the
 * `HAProxyCfg` status back through the API server → `hapedge agent`, which hears of generations
 * only by watching that resource (no push, polling every ten minutes) → HAProxy 2.6 serves the
 * change.
 */
describe('from the cluster to HAProxy', () => {
  let double: KubeApiDouble
  let stack: EdgeStack
  let forwarder: ChildProcess | undefined
  let kubeconfig: string
  const paths = ['/']
  const shop = (): KubeObject =>
    ingress({
      name: 'shop',
      annotations: { 'hapedge.io/ssl-redirect': 'false' },
      rules: [{ host: 'shop.test', paths: paths.map((path) => ({ path, service: path === '/' ? 'web' : 'api' })) }],
    }) as KubeObject
  const answer = async (path: string) => answeredBy(await request(`http://127.0.0.1:${stack.httpPort}${path}`, { headers: { host: 'shop.test' } }))
  const resource = () =>
    double.find({ apiVersion: 'hapedge.io/v1alpha1', kind: 'HAProxyCfg', metadata: { namespace: 'hapedge', name: 'edge' } })?.status as
      | HAProxyCfgStatus
      | undefined
  const head = async () =>
    (await (await fetch(`${stack.served.url}/v1/clusters/edge/head`, { headers: { authorization: `Bearer ${stack.token}` } })).json()) as {
      generation: number
      manifest: string
    }

  beforeAll(async () => {
    double = await startKubeApiDouble()
    kubeconfig = await double.kubeconfig()
    stack = await startEdgeStack(
      { web: ['web-1'], api: ['api-1'] },
      async ({ backends, served, token }) => {
        const slice = (name: string) => endpointSlice(name, [backends.get(`${name}-1`)!.host], [{ port: backends.get(`${name}-1`)!.port }]) as KubeObject
        for (const object of [service('web'), slice('web'), service('api'), slice('api'), shop()]) double.put(object as KubeObject)
        forwarder = spawn(process.execPath, ['bin/hapedge.js', 'forward', '--source', served.url, '--cluster', 'edge', '--kubeconfig', kubeconfig], {
          cwd: projectRoot,
          stdio: ['ignore', 'inherit', 'inherit'],
          env: { ...process.env, HAPEDGE_TOKEN: token },
        })
        await eventually(
          'the forwarder’s first resync',
          () => fetch(`${served.url}/v1/clusters/edge/head`, { headers: { authorization: `Bearer ${token}` } }).then((response) => response.ok),
          30_000,
        )
      },
      {
        push: false,
        serveEnv: { HAPEDGE_SECRET: SECRET },
        registration: { kubernetes: { server: double.url, token: double.token, caData: Buffer.from(double.caPem).toString('base64') } },
      },
    )
  }, 90_000)
  afterAll(async () => {
    forwarder?.kill('SIGTERM')
    await stack?.stop()
    await double?.stop()
  })

  it('serves a path added in the cluster, and the cluster’s HAProxyCfg names the generation and the pod that runs it', async () => {
    await stack.agentProcess('haproxy-0', ['--follow-resource', 'hapedge/edge', '--kubeconfig', kubeconfig])
    expect(await answer('/api/x')).toBe('web-1')

    paths.push('/api')
    double.put(shop())
    await eventually('/api served through HAProxy', async () => (await answer('/api/x')) === 'api-1', 30_000)
    const committed = await head()
    await eventually('the status naming the generation', () => resource()?.generation === committed.generation)
    expect(resource()!.manifest).toBe(committed.manifest)
    await eventually(
      'the pod running it, in the status',
      () => resource()?.pods.find((pod) => pod.pod === 'haproxy-0' && pod.generation === committed.generation),
      30_000,
    )

    const bad = ingress({
      name: 'bad',
      rules: [{ host: 'bad.test', paths: [{ path: '/', service: 'web' }] }],
      annotations: { 'nginx.ingress.kubernetes.io/enable-modsecurity': 'true' },
    }) as KubeObject
    double.put(bad)
    await eventually('the rejected Ingress in the status', () => resource()?.rejected.find((rejection) => rejection.object === 'Ingress default/bad'), 30_000)
    await eventually('its Warning Event', () =>
      double.list('v1', 'Event', 'default').find((event) => (event as { involvedObject?: { name?: string } }).involvedObject?.name === 'bad'),
    )
    expect(await answer('/api/x')).toBe('api-1')
  }, 120_000)
})
