import { describe, expect, it } from 'vitest'
import { LiveCluster } from '../../../core/incremental/live-cluster.ts'
import { fullRebuild } from '../../../core/render/full-rebuild.ts'
import { endpointSlice, ingress, service } from '../../support/objects.ts'

/** NGINX Inc.'s mergeable Ingresses (nginx.org/mergeable-ingress-type): a master sets the host, minions add paths. */

const HOST = 'cafe.example.com'
const serviceObjects = ['coffee', 'tea'].flatMap((name) => [service(name), endpointSlice(name, [name === 'coffee' ? '10.0.0.1' : '10.0.0.2'])])

/** A master names its host and serves no path: its rule has no `http`. */
function master(name: string, annotations: Record<string, string> = {}, createdAt?: string) {
  const object = ingress({ name, createdAt, annotations: { 'nginx.org/mergeable-ingress-type': 'master', ...annotations }, rules: [] })
  return { ...object, spec: { ...object.spec, rules: [{ host: HOST }] } }
}

const minion = (name: string, path: string, annotations: Record<string, string> = {}) =>
  ingress({
    name,
    annotations: { 'nginx.org/mergeable-ingress-type': 'minion', ...annotations },
    rules: [{ host: HOST, paths: [{ path, service: name.replace('-minion', '') }] }],
  })

const routesOf = (objects: unknown[]) => {
  const { model } = fullRebuild(objects as Record<string, unknown>[])
  return { model, routes: model.hosts.get(HOST)?.routes ?? [] }
}

describe('mergeable Ingresses', () => {
  it("serves the minions' paths with the master's inherited annotations under their own", () => {
    const { model, routes } = routesOf([
      master('cafe-master', { 'nginx.org/proxy-read-timeout': '20s', 'nginx.org/client-max-body-size': '4m' }),
      minion('coffee-minion', '/coffee'),
      minion('tea-minion', '/tea', { 'nginx.org/proxy-read-timeout': '5s' }),
      ...serviceObjects,
    ])
    expect(routes.map(({ path, owner, timeouts, bodySize }) => ({ path, owner, timeouts, bodySize }))).toEqual([
      { path: '/coffee', owner: 'Ingress default/coffee-minion', timeouts: { server: 20_000 }, bodySize: 4 * 1024 * 1024 },
      { path: '/tea', owner: 'Ingress default/tea-minion', timeouts: { server: 5_000 }, bodySize: 4 * 1024 * 1024 },
    ])
    expect(model.rejections).toEqual([])
  })

  it("applies the master's host-wide annotations to every minion, and ignores a minion's own, saying so", () => {
    const { model, routes } = routesOf([
      master('cafe-master', { 'nginx.org/proxy-hide-headers': 'X-Powered-By' }),
      minion('coffee-minion', '/coffee', { 'nginx.org/proxy-hide-headers': 'Server' }),
      ...serviceObjects,
    ])
    expect(routes[0]?.headers).toEqual([{ rule: 'res-del|x-powered-by', value: '' }])
    expect(model.rejections).toEqual([
      {
        object: 'Ingress default/coffee-minion',
        reason:
          'metadata.annotations.nginx.org/proxy-hide-headers: the master Ingress default/cafe-master sets it for the host; a minion cannot, so it is ignored',
      },
    ])
  })

  it('serves no path of a master, a minion without a master, nor a second master, and says why', () => {
    const withPaths = ingress({
      name: 'cafe-master',
      annotations: { 'nginx.org/mergeable-ingress-type': 'master' },
      rules: [{ host: HOST, paths: [{ path: '/', service: 'tea' }] }],
    })
    const { model, routes } = routesOf([withPaths, master('late-master', {}, '2025-01-01T00:00:00Z'), minion('coffee-minion', '/coffee'), ...serviceObjects])
    expect(routes.map(({ path }) => path)).toEqual(['/coffee'])
    expect(model.rejections.map(({ object, reason }) => `${object}: ${reason}`)).toEqual([
      'Ingress default/cafe-master: spec.rules[0].http: a master Ingress serves no path (its minions do); its paths are not served',
      `Ingress default/late-master: host "${HOST}" already has the master Ingress default/cafe-master (nginx.org/mergeable-ingress-type); this one is not served`,
    ])
    const orphan = routesOf([minion('coffee-minion', '/coffee'), ...serviceObjects])
    expect(orphan.routes).toEqual([])
    expect(orphan.model.rejections.map(({ reason }) => reason)).toEqual([
      `a minion (nginx.org/mergeable-ingress-type) of host "${HOST}", which has no master Ingress; it is not served`,
    ])
  })

  it("refuses a minion's routes when its master's inherited annotations are refused (a snippet), never serving them without", () => {
    const { model, routes } = routesOf([
      master('cafe-master', { 'nginx.org/location-snippets': 'auth_request /auth;' }),
      minion('coffee-minion', '/coffee'),
      ...serviceObjects,
    ])
    expect(routes.map(({ path, refused }) => ({ path, refused }))).toEqual([{ path: '/coffee', refused: true }])
    expect(model.rejections.find(({ object }) => object === 'Ingress default/coffee-minion')?.reason).toMatch(
      /^from its master Ingress default\/cafe-master: .*nginx\.org\/location-snippets/,
    )
  })

  it('a change of the master reaches its minions on the incremental path, as on a full rebuild', () => {
    const cluster = new LiveCluster({})
    const added = (object: unknown) => ({ type: 'ADDED' as const, object: object as Record<string, unknown> })
    cluster.apply([...serviceObjects, master('cafe-master', { 'nginx.org/proxy-read-timeout': '20s' }), minion('coffee-minion', '/coffee')].map(added))
    const changed = master('cafe-master', { 'nginx.org/proxy-read-timeout': '30s' })
    const after = cluster.apply([{ type: 'MODIFIED' as const, object: changed as Record<string, unknown> }])
    expect(after.plan.reload).toBe(false)
    const rebuilt = fullRebuild([...serviceObjects, changed, minion('coffee-minion', '/coffee')] as Record<string, unknown>[])
    expect(Object.fromEntries(cluster.files())).toEqual(Object.fromEntries(rebuilt.files))
  })
})
