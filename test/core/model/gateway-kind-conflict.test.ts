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

/** An HTTPRoute and a GRPCRoute on one listener with a hostname in common: the GRPCRoute specification accepts exactly one, the older. */

const AT = '2026-12-05T00:00:00.000Z'
const services = [service('web', [{ port: 80 }]), endpointSlice('web', ['10.0.0.1'], [{ port: 8080 }])]
const edge = gateway('edge', [
  { name: 'api', hostname: 'api.example.com' },
  { name: 'any', port: 80 },
])
const web = (createdAt: string, hostnames = ['api.example.com']) =>
  httpRoute({ name: 'web', createdAt, hostnames, parents: [{ name: 'edge', sectionName: 'api' }], rules: [{ backends: [{ service: 'web' }] }] })
const echo = (createdAt: string, hostnames = ['api.example.com']) =>
  grpcRoute({
    name: 'echo',
    createdAt,
    hostnames,
    parents: [{ name: 'edge', sectionName: 'api' }],
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

describe('an HTTPRoute and a GRPCRoute on one listener and hostname', () => {
  it('accepts the older only: the newer is Accepted False (Conflicted), reported, and not served there', () => {
    for (const [older, newer, served] of [
      ['HTTPRoute', 'GRPCRoute', 'Prefix /'],
      ['GRPCRoute', 'HTTPRoute', 'Prefix /hapedge.Echo'],
    ] as const) {
      const objects = [gatewayClass(), edge, ...services, web(older === 'HTTPRoute' ? OLD : NEW), echo(older === 'GRPCRoute' ? OLD : NEW)]
      const { model, state } = fullRebuild(objects)
      expect(model.hosts.get('api.example.com')?.routes.map((route) => `${route.match} ${route.path}`)).toEqual([served])
      const loser = newer === 'HTTPRoute' ? 'web' : 'echo'
      expect(model.rejections).toEqual([
        {
          object: `${newer} default/${loser}`,
          reason: `spec.parentRefs[0]: not attached to Gateway default/edge there: listener "api": ${older} default/${loser === 'web' ? 'echo' : 'web'}, first (the older, then by namespace/name), is attached there on host "api.example.com" (Conflicted); the ${newer} is not served`,
        },
      ])
      const status = gatewayApiStatus(state, AT).objects
      expect([accepted(status, older), accepted(status, newer)]).toEqual(['True/Accepted', 'False/Conflicted'])
      expect(attachedRoutes(status)).toEqual(['api 1', 'any 0'])
    }
  })

  it('serves both where their hostnames differ, or on different listeners', () => {
    const any = [{ name: 'edge', sectionName: 'any' }]
    const www = httpRoute({ name: 'web', createdAt: OLD, hostnames: ['www.example.com'], parents: any, rules: [{ backends: [{ service: 'web' }] }] })
    const api = grpcRoute({ name: 'echo', createdAt: NEW, hostnames: ['api.example.com'], parents: any, rules: [{ backends: [{ service: 'web' }] }] })
    const apart = fullRebuild([gatewayClass(), edge, ...services, www, api])
    expect(apart.model.rejections).toEqual([])
    expect([...apart.model.hosts.keys()].sort()).toEqual(['api.example.com', 'www.example.com'])
    const other = grpcRoute({
      name: 'echo',
      createdAt: NEW,
      hostnames: ['api.example.com'],
      parents: any,
      rules: [{ backends: [{ service: 'web' }] }],
    })
    const listeners = fullRebuild([gatewayClass(), edge, ...services, web(OLD), other])
    // Both accepted; one host's maps still give the same path to one of them, the older (reported as before).
    const status = gatewayApiStatus(listeners.state, AT).objects
    expect([accepted(status, 'HTTPRoute'), accepted(status, 'GRPCRoute')]).toEqual(['True/Accepted', 'True/Accepted'])
    expect(attachedRoutes(status)).toEqual(['api 1', 'any 1'])
  })

  it('follows the older coming, going and changing its hostnames, incrementally as a full rebuild says (files and status)', () => {
    const steps: { events: (ReturnType<typeof modified> | ReturnType<typeof deleted>)[]; objects: unknown[] }[] = [
      { events: [], objects: [gatewayClass(), edge, ...services, echo(NEW)] },
      { events: [], objects: [web(OLD)] },
      { events: [], objects: [web(OLD, ['www.example.com'])] },
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
    expect(accepted(gatewayApiStatus(fullRebuild([...seen, web(OLD)]).state, AT).objects, 'GRPCRoute')).toBe('False/Conflicted')
  })
})
