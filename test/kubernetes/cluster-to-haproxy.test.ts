import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { eventually } from '../support/eventually.ts'
import type { KubeObject } from '../support/kube-api-double.ts'
import { endpointSlice, ingress, service } from '../support/objects.ts'
import { startClusterPath, type ClusterPath } from './cluster-path.ts'

/** The whole path for Ingresses (cluster-path.ts): the agent hears of generations only by watching the `HAProxyCfg` (no push, polling every ten minutes). */
describe('from the cluster to HAProxy', () => {
  let path: ClusterPath
  const paths = ['/']
  const shop = (): KubeObject =>
    ingress({
      name: 'shop',
      annotations: { 'hapedge.io/ssl-redirect': 'false' },
      rules: [{ host: 'shop.test', paths: paths.map((path) => ({ path, service: path === '/' ? 'web' : 'api' })) }],
    }) as KubeObject

  beforeAll(async () => {
    path = await startClusterPath({ web: ['web-1'], api: ['api-1'] }, (backends) => {
      const slice = (name: string) => endpointSlice(name, [backends.get(`${name}-1`)!.host], [{ port: backends.get(`${name}-1`)!.port }]) as KubeObject
      return [service('web'), slice('web'), service('api'), slice('api'), shop()] as KubeObject[]
    })
  }, 90_000)
  afterAll(async () => {
    await path?.stop()
  })

  it('serves a path added in the cluster, and the cluster’s HAProxyCfg names the generation and the pod that runs it', async () => {
    const { double, stack, kubeconfig } = path
    await stack.agentProcess('haproxy-0', ['--follow-resource', 'hapedge/edge', '--kubeconfig', kubeconfig])
    expect(await path.answer('shop.test', '/api/x')).toBe('web-1')

    paths.push('/api')
    double.put(shop())
    await eventually('/api served through HAProxy', async () => (await path.answer('shop.test', '/api/x')) === 'api-1', 30_000)
    const committed = await path.head()
    await eventually('the status naming the generation', () => path.status()?.generation === committed.generation)
    expect(path.status()!.manifest).toBe(committed.manifest)
    await eventually(
      'the pod running it, in the status',
      () => path.status()?.pods.find((pod) => pod.pod === 'haproxy-0' && pod.generation === committed.generation),
      30_000,
    )

    const bad = ingress({
      name: 'bad',
      rules: [{ host: 'bad.test', paths: [{ path: '/', service: 'web' }] }],
      annotations: { 'nginx.ingress.kubernetes.io/enable-modsecurity': 'true' },
    }) as KubeObject
    double.put(bad)
    await eventually(
      'the rejected Ingress in the status',
      () => path.status()?.rejected.find((rejection) => rejection.object === 'Ingress default/bad'),
      30_000,
    )
    await eventually('its Warning Event', () =>
      double.list('v1', 'Event', 'default').find((event) => (event as { involvedObject?: { name?: string } }).involvedObject?.name === 'bad'),
    )
    expect(await path.answer('shop.test', '/api/x')).toBe('api-1')
  }, 120_000)
})
