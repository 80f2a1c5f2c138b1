import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readObject } from '../../core/kube/objects.ts'
import { ClusterState } from '../../core/model/cluster-state.ts'
import { DEFAULT_GATEWAY_CONTROLLER } from '../../core/model/settings.ts'
import { gatewayApiStatus } from '../../core/gateway-status/gateway-api-status.ts'
import { kubernetesClusterWriter } from '../../functions/adapters/kubernetes/status-writer.ts'
import { gateway, gatewayClass, httpRoute } from '../support/gateway-objects.ts'
import { GATEWAY_API_RESOURCES } from '../support/kube-api/resources.ts'
import { startKubeApiDouble, type KubeApiDouble, type KubeObject } from '../support/kube-api-double.ts'
import { service } from '../support/objects.ts'
import { kubeConfigOf } from './haproxycfg-fixtures.ts'

const objects = () => [
  gatewayClass(),
  service('web'),
  gateway('edge', [{ name: 'http' }]),
  httpRoute({ name: 'shop', rules: [{ backends: [{ service: 'web' }] }] }),
  httpRoute({ name: 'lost', parents: [{ name: 'edge', sectionName: 'nope' }], rules: [{ backends: [{ service: 'web' }] }] }),
]

function computed(list: unknown[], at: string) {
  const state = new ClusterState()
  for (const object of list) state.apply(readObject(object))
  return gatewayApiStatus(state, at)
}

const statusPatches = (double: KubeApiDouble) => double.requests.filter((request) => request.method === 'PATCH' && request.path.endsWith('/status'))
type Parents = {
  parents: {
    controllerName: string
    parentRef: { name: string }
    conditions: { type: string; status: string; reason: string; lastTransitionTime: string; observedGeneration: number }[]
  }[]
}

describe('the Gateway API status writer against an API server double', () => {
  let double: KubeApiDouble
  beforeAll(async () => {
    double = await startKubeApiDouble({ resources: GATEWAY_API_RESOURCES })
  })
  afterAll(async () => {
    await double?.stop()
  })

  it('patches /status of the GatewayClass, the Gateway and each route, keeps other controllers’ parents, and writes nothing while nothing changed', async () => {
    for (const object of objects()) double.put(object as KubeObject)
    const mesh = { parentRef: { group: '', kind: 'Service', name: 'web' }, controllerName: 'example.com/mesh', conditions: [] }
    double.put({ ...(httpRoute({ name: 'shop', rules: [{ backends: [{ service: 'web' }] }] }) as KubeObject), status: { parents: [mesh] } })
    const writer = kubernetesClusterWriter({ kubeConfig: kubeConfigOf(double), cluster: 'prod' })
    double.requests.length = 0
    const first = await writer.writeGatewayStatus!(computed(objects(), '2026-12-05T00:00:00.000Z'))
    expect(first).toEqual({ written: 4, unchanged: 0, missing: 0, errors: [] })
    expect(statusPatches(double).map((request) => request.path.split('/').slice(-3).join('/'))).toEqual([
      'gatewayclasses/hapedge/status',
      'httproutes/lost/status',
      'httproutes/shop/status',
      'gateways/edge/status',
    ])
    expect(statusPatches(double).every((request) => request.contentType === 'application/merge-patch+json')).toBe(true)
    const shop = double.find(httpRoute({ name: 'shop', rules: [] }))!.status as Parents
    expect(shop.parents.map((parent) => parent.controllerName)).toEqual(['example.com/mesh', DEFAULT_GATEWAY_CONTROLLER])
    expect(shop.parents[1]!.conditions.map(({ type, status, reason, observedGeneration }) => [type, status, reason, observedGeneration])).toEqual([
      ['Accepted', 'True', 'Accepted', 1],
      ['ResolvedRefs', 'True', 'ResolvedRefs', 1],
    ])
    const edge = double.find(gateway('edge', [])) as KubeObject & { status: { listeners: { name: string; attachedRoutes: number }[]; conditions: unknown[] } }
    expect(edge.status.listeners).toMatchObject([
      {
        name: 'http',
        attachedRoutes: 1,
        supportedKinds: [
          { group: 'gateway.networking.k8s.io', kind: 'HTTPRoute' },
          { group: 'gateway.networking.k8s.io', kind: 'GRPCRoute' },
        ],
      },
    ])
    expect(double.find(gatewayClass())!.status).toMatchObject({ conditions: [{ type: 'Accepted', status: 'True', reason: 'Accepted' }] })

    // A later commit computing the same status: no request at all (this writer remembers what it found written).
    double.requests.length = 0
    expect(await writer.writeGatewayStatus!(computed(objects(), '2026-12-05T00:05:00.000Z'))).toEqual({ written: 0, unchanged: 4, missing: 0, errors: [] })
    expect(double.requests).toEqual([])
    // Another writer (a restarted forwarder) reads each object once, and finds it written.
    const restarted = kubernetesClusterWriter({ kubeConfig: kubeConfigOf(double), cluster: 'prod' })
    expect(await restarted.writeGatewayStatus!(computed(objects(), '2026-12-05T00:06:00.000Z'))).toEqual({ written: 0, unchanged: 4, missing: 0, errors: [] })
    expect(statusPatches(double)).toEqual([])
  })

  it('a route whose parentRef now names a listener gets that entry in place of the old one, the others keep theirs; a route deleted since the commit is missing', async () => {
    const writer = kubernetesClusterWriter({ kubeConfig: kubeConfigOf(double), cluster: 'prod' })
    const before = double.find(httpRoute({ name: 'shop', rules: [] }))!.status as Parents
    // `lost` names the listener now: its spec changed (generation 2), and it attaches.
    const found = httpRoute({ name: 'lost', parents: [{ name: 'edge', sectionName: 'http' }], rules: [{ backends: [{ service: 'web' }] }] })
    double.put(found as KubeObject)
    const later = '2026-12-05T01:00:00.000Z'
    const next = [
      ...objects().filter((object) => object.metadata.name !== 'lost'),
      found,
      httpRoute({ name: 'gone', rules: [{ backends: [{ service: 'web' }] }] }),
    ]
    const result = await writer.writeGatewayStatus!(computed(next, later))
    expect(result).toMatchObject({ missing: 1, errors: [] })
    const lost = double.find(found)!.status as Parents
    expect(lost.parents).toHaveLength(1)
    expect(lost.parents[0]!.parentRef).toEqual({ name: 'edge', sectionName: 'http' })
    expect(
      lost.parents[0]!.conditions.map(({ type, status, lastTransitionTime, observedGeneration }) => [type, status, lastTransitionTime, observedGeneration]),
    ).toEqual([
      ['Accepted', 'True', later, 2],
      // Another parentRef (sectionName http, not nope) is another entry: its conditions start now.
      ['ResolvedRefs', 'True', later, 2],
    ])
    // shop: attachedRoutes changed on the Gateway (shop, lost and gone, as the commit saw them), not shop's own status: it stays as it was.
    expect(double.find(httpRoute({ name: 'shop', rules: [] }))!.status).toEqual(before)
    expect((double.find(gateway('edge', [])) as KubeObject & { status: { listeners: { attachedRoutes: number }[] } }).status.listeners[0]!.attachedRoutes).toBe(
      3,
    )
  })

  it('reports each object it could not write, with the API server’s answer', async () => {
    const refused = kubernetesClusterWriter({ kubeConfig: kubeConfigOf(double, 'wrong-token'), cluster: 'prod' })
    const result = await refused.writeGatewayStatus!(computed(objects(), '2026-12-05T02:00:00.000Z'))
    expect(result.written).toBe(0)
    expect(result.errors).toHaveLength(4)
    expect(result.errors[0]).toMatch(/^GatewayClass\/hapedge: 401/)
  })
})
