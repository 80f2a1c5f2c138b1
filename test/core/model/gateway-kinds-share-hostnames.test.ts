import { describe, expect, it } from 'vitest'
import { gatewayApiStatus } from '../../../core/gateway-status/gateway-api-status.ts'
import { storedGatewayStatus } from '../../../core/gateway-status/stored-gateway-status.ts'
import { LiveCluster } from '../../../core/incremental/live-cluster.ts'
import type { GatewayObjectStatus } from '../../../core/kube/gateway-status.ts'
import { ClusterState } from '../../../core/model/cluster-state.ts'
import { fullRebuild } from '../../../core/render/full-rebuild.ts'
import { Keyspace } from '../../../core/snapshot/keyspace.ts'
import { gateway, gatewayClass, grpcRoute, holdAfter, httpRoute } from '../../support/gateway-objects.ts'
import { endpointSlice, service } from '../../support/objects.ts'

/**
 * An HTTPRoute and a GRPCRoute on one listener with hostnames in common (equal, or a wildcard and a
 * name under it) are both accepted and served, as gateway-api #4598 lets an implementation do: their
 * matches on a host are ranked together, and a match both claim goes to the older, the other reported.
 */

const AT = '2026-12-05T00:00:00.000Z'
const services = [service('web', [{ port: 80 }]), endpointSlice('web', ['10.0.0.1'], [{ port: 8080 }])]
const edge = gateway('edge', [
  { name: 'api', hostname: '*.example.com' },
  { name: 'any', port: 80 },
])
const api = [{ name: 'edge', sectionName: 'api' }]
const web = (createdAt: string, hostnames = ['api.example.com'], path?: string) =>
  httpRoute({
    name: 'web',
    createdAt,
    hostnames,
    parents: api,
    rules: [{ ...(path ? { matches: [{ type: 'PathPrefix', value: path }] } : {}), backends: [{ service: 'web' }] }],
  })
const echo = (createdAt: string, hostnames = ['api.example.com']) =>
  grpcRoute({
    name: 'echo',
    createdAt,
    hostnames,
    parents: api,
    rules: [{ matches: [{ method: { service: 'hapedge.Echo' } }], backends: [{ service: 'web' }] }],
  })
const OLD = '2020-01-01T00:00:00Z'
const NEW = '2024-01-01T00:00:00Z'
const modified = (object: unknown) => ({ type: 'MODIFIED' as const, object: object as Record<string, unknown> })
const deleted = (object: unknown) => ({ type: 'DELETED' as const, object: object as Record<string, unknown> })

const accepted = (objects: GatewayObjectStatus[], kind: string) => {
  const route = objects.find((object) => object.kind === kind)
  const condition = route?.kind === kind && 'parents' in route ? route.parents[0]?.conditions.find((one) => one.type === 'Accepted') : undefined
  return condition && `${condition.status}/${condition.reason}`
}
const attachedRoutes = (objects: GatewayObjectStatus[]) =>
  objects.flatMap((object) => (object.kind === 'Gateway' ? object.status.listeners.map((listener) => `${listener.name} ${listener.attachedRoutes}`) : []))
const paths = (model: ReturnType<typeof fullRebuild>['model'], host: string) =>
  model.hosts.get(host)?.routes.map((route) => `${route.match} ${route.path} ${route.owner}`)

describe('an HTTPRoute and a GRPCRoute on one listener with hostnames in common', () => {
  it('serves both on an equal name, whichever is older: each takes its own matches, neither is reported', () => {
    for (const [httpAt, grpcAt] of [
      [OLD, NEW],
      [NEW, OLD],
    ]) {
      const { model, state } = fullRebuild([gatewayClass(), edge, ...services, web(httpAt!), echo(grpcAt!)])
      expect(paths(model, 'api.example.com')).toEqual(['Prefix / HTTPRoute default/web', 'Prefix /hapedge.Echo GRPCRoute default/echo'])
      expect(model.rejections).toEqual([])
      const status = gatewayApiStatus(state, AT).objects
      expect([accepted(status, 'HTTPRoute'), accepted(status, 'GRPCRoute')]).toEqual(['True/Accepted', 'True/Accepted'])
      expect(attachedRoutes(status)).toEqual(['api 2', 'any 0'])
    }
  })

  it('serves both where one’s wildcard covers the other’s name: the name is its own host, the wildcard serves the others', () => {
    const { model, state } = fullRebuild([gatewayClass(), edge, ...services, web(NEW, ['*.example.com']), echo(OLD)])
    expect(paths(model, '*.example.com')).toEqual(['Prefix / HTTPRoute default/web'])
    expect(paths(model, 'api.example.com')).toEqual(['Prefix /hapedge.Echo GRPCRoute default/echo'])
    expect(model.rejections).toEqual([])
    const status = gatewayApiStatus(state, AT).objects
    expect([accepted(status, 'HTTPRoute'), accepted(status, 'GRPCRoute')]).toEqual(['True/Accepted', 'True/Accepted'])
  })

  it('gives a match both claim to the older, and reports the other, both still accepted', () => {
    const { model, state } = fullRebuild([gatewayClass(), edge, ...services, web(NEW, ['api.example.com'], '/hapedge.Echo'), echo(OLD)])
    expect(paths(model, 'api.example.com')).toEqual(['Prefix /hapedge.Echo GRPCRoute default/echo'])
    expect(model.rejections).toEqual([
      {
        object: 'HTTPRoute default/web',
        reason: 'spec.rules[0].matches[0]: host "api.example.com" Prefix /hapedge.Echo is already served by GRPCRoute default/echo',
      },
    ])
    const status = gatewayApiStatus(state, AT).objects
    expect([accepted(status, 'HTTPRoute'), accepted(status, 'GRPCRoute')]).toEqual(['True/Accepted', 'True/Accepted'])
  })

  it('follows the other kind coming, going and changing its hostnames, incrementally as a full rebuild says (files and status)', () => {
    const steps: { events: (ReturnType<typeof modified> | ReturnType<typeof deleted>)[]; objects: unknown[] }[] = [
      { events: [], objects: [gatewayClass(), edge, ...services, echo(NEW)] },
      { events: [], objects: [web(OLD)] },
      { events: [], objects: [web(OLD, ['*.example.com'])] },
      { events: [], objects: [web(OLD, ['api.example.com'], '/hapedge.Echo')] },
      { events: [], objects: [web(OLD)] },
      { events: [deleted(web(OLD))], objects: [] },
    ]
    const live = new LiveCluster()
    const seen: unknown[] = []
    for (const step of steps) {
      holdAfter(seen, step.objects)
      if (step.events.length > 0)
        seen.splice(
          seen.findIndex((object) => (object as { kind: string }).kind === 'HTTPRoute'),
          1,
        )
      live.apply([...step.objects.map(modified), ...step.events])
      const reference = fullRebuild(seen)
      expect(Object.fromEntries(live.files())).toEqual(Object.fromEntries(reference.files))
      const stored = storedGatewayStatus(live.current.snapshot, new ClusterState({}, new Keyspace(live.current.snapshot)), AT)
      expect(JSON.stringify(stored)).toBe(JSON.stringify(gatewayApiStatus(reference.state, AT)))
    }
  })
})
