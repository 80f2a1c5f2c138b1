import { describe, expect, it } from 'vitest'
import { LiveCluster } from '../../../core/incremental/live-cluster.ts'
import { SnapshotReader } from '../../../core/reading/snapshot-reader.ts'
import { fullRebuild } from '../../../core/render/full-rebuild.ts'
import { gateway, gatewayClass, holdAfter } from '../../support/gateway-objects.ts'
import { configMap, service } from '../../support/objects.ts'

const modified = (object: unknown) => ({ type: 'MODIFIED' as const, object: object as Record<string, unknown> })
const grpc = {
  apiVersion: 'gateway.networking.k8s.io/v1',
  kind: 'GRPCRoute',
  metadata: { name: 'echo', namespace: 'default' },
  spec: { parentRefs: [{ name: 'edge' }], rules: [{ backendRefs: [{ name: 'web', port: 80 }] }] },
}

describe('GRPCRoute on the engine', () => {
  it('is reported while its Gateway is this cluster’s, and the report follows its Gateway, class and controller setting as a full rebuild says', () => {
    const steps: unknown[][] = [
      [service('web'), grpc],
      [gatewayClass(), gateway('edge', [{ name: 'http' }])],
      [configMap({ 'gateway-controller': 'example.com/other' })],
      [configMap({})],
      [gatewayClass('hapedge', 'example.com/other')],
    ]
    const live = new LiveCluster()
    const seen: unknown[] = []
    const reported: string[][] = []
    for (const step of steps) {
      holdAfter(seen, step)
      const applied = live.apply(step.map(modified))
      const rejections = new SnapshotReader(applied.snapshot).rejections()
      expect(rejections).toEqual(fullRebuild(seen).model.rejections)
      reported.push(rejections.map((rejection) => rejection.object))
    }
    expect(reported).toEqual([[], ['GRPCRoute default/echo'], [], ['GRPCRoute default/echo'], []])
  })
})
