import { describe, expect, it } from 'vitest'
import { LiveCluster } from '../../../core/incremental/live-cluster.ts'
import { FILES } from '../../../core/render/files.ts'
import { fullRebuild } from '../../../core/render/full-rebuild.ts'
import { endpointSlice, ingress, service } from '../../support/objects.ts'

/** upstream-vhost in the model and the maps: which routes send another Host, what the maps hold, and what a change costs. */

const HOST = 'shop.example.com'
const web = (annotations: Record<string, string>, name = 'web', path = '/') =>
  ingress({ name, annotations, rules: [{ host: HOST, paths: [{ path, pathType: 'Prefix', service: 'web' }] }] })
const serviceObjects = [service('web'), endpointSlice('web', ['10.0.0.1'])]
const added = (object: unknown) => ({ type: 'ADDED' as const, object: object as Record<string, unknown> })
const modified = (object: unknown) => ({ type: 'MODIFIED' as const, object: object as Record<string, unknown> })

describe('upstream-vhost', () => {
  it('gives the routes of its Ingress the Host their Service is sent, and every other route of the host an entry of none, in either spelling', () => {
    for (const key of ['nginx.ingress.kubernetes.io/upstream-vhost', 'haproxy.org/set-host']) {
      const { model, files } = fullRebuild([web({ [key]: 'internal.example.com' }), web({}, 'api', '/api'), ...serviceObjects])
      expect(model.hosts.get(HOST)!.routes.map((route) => route.upstreamHost)).toEqual(['internal.example.com', undefined])
      expect(files.get(FILES.upstreamHostPrefixMap)).toBe(`${HOST}/ internal.example.com\n${HOST}/api/ -\n`)
      expect(files.get(FILES.upstreamHostExactMap)).toBe(`${HOST}/api -\n`)
      expect(model.warnings).toEqual([])
    }
  })

  it('refuses a value that is not one DNS name, with a warning, and sends the client’s Host', () => {
    const { model, files } = fullRebuild([web({ 'nginx.ingress.kubernetes.io/upstream-vhost': 'a.example.com %[env(HOME)]' }), ...serviceObjects])
    expect(files.get(FILES.upstreamHostPrefixMap)).toBe('')
    expect(model.warnings).toMatchObject([{ annotation: 'nginx.ingress.kubernetes.io/upstream-vhost' }])
  })

  it('a changed upstream Host is a map edit, without a reload', () => {
    const cluster = new LiveCluster({})
    cluster.apply([...serviceObjects, web({ 'hapedge.io/upstream-vhost': 'one.internal' })].map(added))
    const changed = cluster.apply([modified(web({ 'hapedge.io/upstream-vhost': 'two.internal' }))])
    expect(changed.plan).toMatchObject({ reload: false, reasons: [] })
    expect(changed.plan.maps).toEqual([{ map: FILES.upstreamHostPrefixMap, key: `${HOST}/`, value: 'two.internal' }])
  })
})
