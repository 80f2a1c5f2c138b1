import { describe, expect, it } from 'vitest'
import { DirtySet } from '../../../core/incremental/dirty-set.ts'
import { touchGatewayChange } from '../../../core/incremental/gateway-changes.ts'
import { LiveCluster } from '../../../core/incremental/live-cluster.ts'
import { objectRef, readObject, type KubeObject } from '../../../core/kube/objects.ts'
import { ClusterState } from '../../../core/model/cluster-state.ts'
import { readLabelSelector, selects } from '../../../core/model/label-selector.ts'
import { FILES } from '../../../core/render/files.ts'
import { fullRebuild } from '../../../core/render/full-rebuild.ts'
import { gateway, gatewayClass, httpRoute, namespace } from '../../support/gateway-objects.ts'
import { endpointSlice, service } from '../../support/objects.ts'

/** A Gateway listener's `allowedRoutes.namespaces.from: Selector`, over the Namespaces' labels. */

const selector = { matchLabels: { team: 'web' }, matchExpressions: [{ key: 'env', operator: 'NotIn', values: ['test'] }] }
const edge = gateway('edge', [{ name: 'web', from: 'Selector', selector }, { name: 'same' }])
const route = (name: string, sectionName?: string, ns = 'shop') =>
  httpRoute({
    name,
    namespace: ns,
    hostnames: [`${name}.example.com`],
    parents: [{ name: 'edge', namespace: 'default', ...(sectionName ? { sectionName } : {}) }],
    rules: [{ backends: [{ service: 'app' }] }],
  })
const appIn = (namespace: string) => [service('app', [{ port: 80 }], namespace), endpointSlice('app', ['10.0.0.1'], [{ port: 8080 }], { namespace })]
const app = appIn('shop')
const modified = (object: unknown) => ({ type: 'MODIFIED' as const, object: object as Record<string, unknown> })

describe('a label selector', () => {
  it('selects by every matchLabels pair and every requirement (In, NotIn, Exists, DoesNotExist); an empty one selects everything', () => {
    const read = (value: unknown) => {
      const result = readLabelSelector(value)
      if (!('selector' in result)) throw new Error(result.invalid)
      return result.selector
    }
    expect(selects(read(selector), { team: 'web' })).toBe(true)
    expect(selects(read(selector), { team: 'web', env: 'prod' })).toBe(true)
    expect(selects(read(selector), { team: 'web', env: 'test' })).toBe(false)
    expect(selects(read(selector), { team: 'api' })).toBe(false)
    expect(selects(read({ matchExpressions: [{ key: 'env', operator: 'In', values: ['a', 'b'] }] }), { env: 'b' })).toBe(true)
    expect(selects(read({ matchExpressions: [{ key: 'env', operator: 'In', values: ['a'] }] }), {})).toBe(false)
    expect(selects(read({ matchExpressions: [{ key: 'env', operator: 'Exists' }] }), { env: '' })).toBe(true)
    expect(selects(read({ matchExpressions: [{ key: 'env', operator: 'DoesNotExist' }] }), { env: '' })).toBe(false)
    expect(selects(read({}), {})).toBe(true)
    expect(readLabelSelector({ matchExpressions: [{ key: 'env', operator: 'In', values: [] }] })).toMatchObject({ invalid: expect.stringContaining('values') })
    expect(readLabelSelector({ matchExpressions: [{ key: 'env', operator: 'Near' }] })).toMatchObject({ invalid: expect.any(String) })
    expect(readLabelSelector(undefined)).toEqual({ invalid: 'is missing' })
  })
})

describe('a Selector listener', () => {
  it("admits the routes of the namespaces its selector selects, and reports the others with the listener's reason", () => {
    const { model } = fullRebuild([
      gatewayClass(),
      edge,
      ...app,
      ...appIn('blog'),
      namespace('shop', { team: 'web' }),
      namespace('blog', { team: 'blog' }),
      route('a'),
      route('b', undefined, 'blog'),
    ])
    expect([...model.hosts.keys()]).toEqual(['a.example.com'])
    expect(model.rejections).toEqual([
      {
        object: 'HTTPRoute blog/b',
        reason:
          'spec.parentRefs[0]: not attached to Gateway default/edge: listener "web": allowedRoutes.namespaces.selector does not select Namespace blog (NotAllowedByListeners); listener "same": allowedRoutes admits routes of namespace default only (NotAllowedByListeners); the HTTPRoute is not served',
      },
    ])
  })

  it('admits nothing from a Namespace hapedge was not sent, nor through a selector that is none (reported on the Gateway)', () => {
    const bad = gateway('edge', [{ name: 'web', from: 'Selector', selector: { matchExpressions: [{ key: 'team', operator: 'In' }] } }])
    const unknown = fullRebuild([gatewayClass(), edge, ...app, route('a')]).model
    expect(unknown.hosts.size).toBe(0)
    expect(unknown.rejections[0]!.reason).toContain('Namespace shop is not known to hapedge, so its labels select nothing (NotAllowedByListeners)')
    const invalid = fullRebuild([gatewayClass(), bad, ...app, namespace('shop', { team: 'web' }), route('a')]).model
    expect(invalid.hosts.size).toBe(0)
    expect(invalid.rejections.find((rejection) => rejection.object === 'Gateway default/edge')?.reason).toMatch(
      /^spec\.listeners\[0\]\.allowedRoutes\.namespaces\.selector is not a label selector: .*, so the listener admits no route$/,
    )
  })

  it('a label added to a Namespace attaches its routes and one removed detaches them, byte-equal to a full rebuild', () => {
    const live = new LiveCluster()
    const seen: unknown[] = [gatewayClass(), edge, ...app, namespace('shop'), route('a')]
    live.apply(seen.map(modified))
    const step = (object: unknown) => {
      seen.push(object)
      live.apply([modified(object)])
      expect(Object.fromEntries(live.files())).toEqual(Object.fromEntries(fullRebuild(seen).files))
      return live.files().get(FILES.hostsMap)
    }
    expect(live.files().get(FILES.hostsMap)).toBe('')
    expect(step(namespace('shop', { team: 'web' }))).toBe('a.example.com a.example.com\n')
    expect(step(namespace('shop', { team: 'web', env: 'test' }))).toBe('')
    expect(step(namespace('shop', { team: 'web', env: 'prod' }))).toBe('a.example.com a.example.com\n')
  })
})

describe("a Namespace's change through the incremental engine", () => {
  const stateOf = (objects: unknown[]) => {
    const state = new ClusterState()
    for (const object of objects) state.apply(readObject(object))
    return state
  }
  /** The objects a Namespace's change marks to derive again, and the hosts. */
  const touched = (objects: unknown[], before: unknown, after: unknown) => {
    const state = stateOf([...objects, before])
    const previous = state.apply(readObject(after))
    state.touchedRouteHosts.clear()
    const dirty = new DirtySet()
    const current = readObject(after)
    touchGatewayChange(state, objectRef((current as { object: KubeObject }).object), previous, (current as { object: KubeObject }).object, dirty)
    return { objects: dirty.objects.map((ref) => `${ref.namespace}/${ref.name}`), hosts: [...dirty.hosts] }
  }
  const routes = [
    route('a'),
    route('b', 'same'),
    route('c', 'web', 'blog'),
    httpRoute({ name: 'd', namespace: 'shop', rules: [{ backends: [{ service: 'app' }] }] }),
  ]

  it('derives again exactly the routes of that namespace whose attachment its labels change', () => {
    expect(touched([gatewayClass(), edge, ...routes], namespace('shop'), namespace('shop', { team: 'web' }))).toEqual({
      objects: ['shop/a'],
      hosts: ['a.example.com'],
    })
  })

  it('derives nothing again when no Selector turns (another label, or no Gateway with a Selector)', () => {
    expect(touched([gatewayClass(), edge, ...routes], namespace('shop', { team: 'web' }), namespace('shop', { team: 'web', owner: 'x' }))).toEqual({
      objects: [],
      hosts: [],
    })
    const plain = gateway('edge', [{ name: 'web', from: 'All' }])
    expect(touched([gatewayClass(), plain, ...routes], namespace('shop'), namespace('shop', { team: 'web' }))).toEqual({ objects: [], hosts: [] })
  })
})
