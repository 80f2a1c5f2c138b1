import type { WatchEvent } from '../core/incremental/watch-event.ts'
import type { Random } from './random.ts'
import { INGRESSES_PER_NAMESPACE, type KubeObjectLiteral } from './synthetic-cluster.ts'
import { syntheticHttpRoute } from './synthetic-gateway.ts'

export const HTTPROUTE_CHANGE_KINDS = ['httproute-add', 'httproute-path', 'httproute-weight', 'httproute-delete'] as const
export type HttpRouteChangeKind = (typeof HTTPROUTE_CHANGE_KINDS)[number]

interface RouteSpec {
  rules: { matches: { path: { type: string; value: string } }[]; backendRefs: { name: string; port: number; weight?: number }[] }[]
}

/** The live HTTPRoutes of a synthetic Gateway cluster, and the next change of each kind as watch events. */
export class HttpRouteChangeSource {
  private readonly live = new Map<string, KubeObjectLiteral>()
  private sequence = 0

  constructor(
    objects: readonly KubeObjectLiteral[],
    private readonly routes: number,
    private readonly random: Random,
  ) {
    for (const object of objects) if (object.kind === 'HTTPRoute') this.live.set(routeKey(object.metadata.namespace!, object.metadata.name), object)
  }

  next(kind: HttpRouteChangeKind): WatchEvent[] {
    const k = this.sequence++
    switch (kind) {
      case 'httproute-add':
        return [this.put(syntheticHttpRoute(this.random.int(0, this.routes - 1), this.random, `bench-add-${k}`))]
      case 'httproute-path': {
        const route = this.pickRoute()
        const spec = route.spec as RouteSpec
        const rule = { matches: [{ path: { type: 'PathPrefix', value: `/bench-${k}` } }], backendRefs: [{ name: 'svc-1', port: 80 }] }
        return [this.put({ ...route, spec: { ...spec, rules: [...spec.rules, rule] } })]
      }
      case 'httproute-weight': {
        // A traffic shift between two Services: the weights are runtime values (a canary's map), never a reload.
        const route = this.pickRoute()
        const spec = route.spec as RouteSpec
        const weight = this.random.int(1, 99)
        const [first] = spec.rules
        const rule = {
          ...first!,
          backendRefs: [
            { ...first!.backendRefs[0]!, weight: 100 - weight },
            { name: 'svc-9', port: 80, weight },
          ],
        }
        return [this.put({ ...route, spec: { ...spec, rules: [rule, ...spec.rules.slice(1)] } })]
      }
      case 'httproute-delete': {
        const route = this.pickRoute()
        this.live.delete(routeKey(route.metadata.namespace!, route.metadata.name))
        return [{ type: 'DELETED', object: route }]
      }
    }
  }

  private put(route: KubeObjectLiteral): WatchEvent {
    const key = routeKey(route.metadata.namespace!, route.metadata.name)
    const type = this.live.has(key) ? 'MODIFIED' : 'ADDED'
    this.live.set(key, route)
    return { type, object: route }
  }

  private pickRoute(): KubeObjectLiteral {
    for (;;) {
      const i = this.random.int(0, this.routes - 1)
      const candidate = this.live.get(routeKey(`team-${Math.floor(i / INGRESSES_PER_NAMESPACE)}`, `route-${i}`))
      if (candidate) return candidate
    }
  }
}

const routeKey = (namespace: string, name: string) => `${namespace}/${name}`
