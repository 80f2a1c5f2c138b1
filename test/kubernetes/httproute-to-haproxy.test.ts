import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { eventually } from '../support/eventually.ts'
import { gateway, gatewayClass, httpRoute, type RuleSpec } from '../support/gateway-objects.ts'
import type { KubeObject } from '../support/kube-api-double.ts'
import { GATEWAY_API_RESOURCES } from '../support/kube-api/resources.ts'
import { endpointSlice, service } from '../support/objects.ts'
import { startClusterPath, type ClusterPath } from './cluster-path.ts'

/**
 * The whole path for an HTTPRoute (cluster-path.ts): a cluster with the Gateway API's CRDs, its
 * GatewayClass, Gateway and HTTPRoute listed and watched by `hapedge forward`, served by HAProxy
 * through an agent that follows the `HAProxyCfg`.
 */
describe('from an HTTPRoute in the cluster to HAProxy', () => {
  let path: ClusterPath
  const shop = (rules: RuleSpec[]): KubeObject => httpRoute({ name: 'shop', createdAt: '2026-01-01T00:00:00Z', hostnames: ['shop.test'], rules }) as KubeObject

  beforeAll(async () => {
    path = await startClusterPath(
      { web: ['web-1'], api: ['api-1'] },
      (backends) => {
        const slice = (name: string) => endpointSlice(name, [backends.get(`${name}-1`)!.host], [{ port: backends.get(`${name}-1`)!.port }]) as KubeObject
        return [
          service('web'),
          slice('web'),
          service('api'),
          slice('api'),
          gatewayClass() as KubeObject,
          gateway('edge', [{ name: 'http' }]) as KubeObject,
          shop([{ backends: [{ service: 'web' }] }]),
        ] as KubeObject[]
      },
      GATEWAY_API_RESOURCES,
    )
  }, 90_000)
  afterAll(async () => {
    await path?.stop()
  })

  it('serves the route, a rule added in the cluster, and a shift of its weights', async () => {
    const { double, stack, kubeconfig } = path
    await stack.agentProcess('haproxy-0', ['--follow-resource', 'hapedge/edge', '--kubeconfig', kubeconfig])
    expect(await path.answer('shop.test', '/api/x')).toBe('web-1')
    expect(await path.answer('other.test', '/')).toBe('HTTP 404')

    double.put(shop([{ backends: [{ service: 'web' }] }, { matches: [{ type: 'PathPrefix', value: '/api' }], backends: [{ service: 'api' }] }]))
    await eventually('/api served through HAProxy', async () => (await path.answer('shop.test', '/api/x')) === 'api-1', 30_000)
    expect(await path.answer('shop.test', '/')).toBe('web-1')

    // All of `/` moved to api by weights (web 0): what a canary rollout's last step sends.
    double.put(
      shop([
        {
          backends: [
            { service: 'web', weight: 0 },
            { service: 'api', weight: 1 },
          ],
        },
        { matches: [{ type: 'PathPrefix', value: '/api' }], backends: [{ service: 'api' }] },
      ]),
    )
    await eventually('/ served by api', async () => (await path.answer('shop.test', '/')) === 'api-1', 30_000)
    const committed = await path.head()
    await eventually(
      'the pod running it, in the status',
      () => path.status()?.pods.find((pod) => pod.pod === 'haproxy-0' && pod.generation === committed.generation),
      30_000,
    )
    expect(path.status()?.rejected ?? []).toEqual([])
  }, 120_000)
})
