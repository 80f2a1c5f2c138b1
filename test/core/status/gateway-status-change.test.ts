import { describe, expect, it } from 'vitest'
import { commitEvents, type CommitContext } from '../../../core/commit/commit-events.ts'
import type { GatewayApiStatus, GatewayObjectStatus, GatewayStatusChange } from '../../../core/kube/gateway-status.ts'
import type { Head } from '../../../core/reading/head.ts'
import { gatewayStatusChangeOfHead, gatewayStatusOfHead } from '../../../core/status/gateway-status-of-head.ts'
import { createMemoryStore } from '../../../functions/adapters/storage/memory-store.ts'
import { added, app, coldContext, instantClock } from '../../support/contracts/cluster-apps.ts'
import { gateway, gatewayClass, httpRoute } from '../../support/gateway-objects.ts'

const NOW = new Date('2030-01-01T00:00:00Z')
const route = (name: string, service = 'app-1') => httpRoute({ name, hostnames: [`${name}.example.com`], rules: [{ backends: [{ service }] }] })
const keyOf = (object: GatewayObjectStatus) => ('namespace' in object ? `${object.kind}/${object.namespace}/${object.name}` : `${object.kind}/${object.name}`)

/** A whole status with a change laid over it, as a writer that wrote the first and is given the second holds it. */
function laidOver(whole: GatewayApiStatus, change: GatewayStatusChange): Map<string, GatewayObjectStatus> {
  const objects = new Map(whole.objects.map((object) => [keyOf(object), object]))
  for (const key of change.removed) objects.delete(key)
  for (const object of change.objects) objects.set(keyOf(object), object)
  return objects
}

describe('the Gateway API status of what a commit changed', () => {
  it('lists only the statuses that changed since a snapshot, and laid over its whole status gives the whole status of HEAD', async () => {
    const store = createMemoryStore()
    const ctx: CommitContext = { store, cluster: 'prod', options: {}, context: coldContext(), clock: instantClock() }
    const sources = () => ({ ...ctx, context: coldContext() })
    const routes = Array.from({ length: 40 }, (_, i) => route(`r${i}`))
    let head = (await commitEvents(ctx, [...app(1), ...app(2), gatewayClass(), gateway('edge', [{ name: 'http', from: 'All' }]), ...routes].map(added)))
      .head as Head
    const steps = [
      // A path of one route: its status stands, so nothing changed.
      {
        events: [added(httpRoute({ name: 'r1', hostnames: ['r1.example.com'], rules: [{ matches: [{ value: '/api' }], backends: [{ service: 'app-1' }] }] }))],
        changed: [],
        removed: [],
      },
      // A route added: its entry, and the Gateway's attachedRoutes.
      { events: [added(route('r40'))], changed: ['HTTPRoute/default/r40', 'Gateway/default/edge'], removed: [] },
      // A Service of one route goes: that route's ResolvedRefs.
      { events: [added(route('r2', 'app-3'))], changed: ['HTTPRoute/default/r2'], removed: [] },
      // That Service comes: the route naming it resolves it (a Service that comes or goes derives its routes again).
      {
        events: app(3)
          .filter((object) => object.kind === 'Service')
          .map(added),
        changed: ['HTTPRoute/default/r2'],
        removed: [],
      },
      // A route deleted: its entry goes, the Gateway counts one less.
      { events: [{ type: 'DELETED' as const, object: route('r3') }], changed: ['Gateway/default/edge'], removed: ['HTTPRoute/default/r3'] },
    ]
    for (const step of steps) {
      const before = head
      const whole = (await gatewayStatusOfHead(sources(), before, NOW))!
      head = (await commitEvents(ctx, step.events)).head as Head
      const change = (await gatewayStatusChangeOfHead(sources(), head, NOW, before.snapshot))!
      expect(change.objects.map(keyOf).sort()).toEqual([...step.changed].sort())
      expect(change.removed).toEqual(step.removed)
      const after = (await gatewayStatusOfHead(sources(), head, NOW))!
      expect(laidOver(whole, change)).toEqual(new Map(after.objects.map((object) => [keyOf(object), object])))
    }
  })
})
