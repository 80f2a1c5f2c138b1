import { describe, expect, it } from 'vitest'
import { LiveCluster } from '../../../core/incremental/live-cluster.ts'
import { FILES } from '../../../core/render/files.ts'
import { fullRebuild } from '../../../core/render/full-rebuild.ts'
import { endpointSlice, ingress, service } from '../../support/objects.ts'

/** Per-route timeouts in the model and the maps: which routes have them, what the maps hold, and what a change costs. */

const HOST = 'shop.example.com'
const web = (annotations: Record<string, string>, name = 'web', path = { path: '/', pathType: 'Prefix' as const }) =>
  ingress({ name, annotations, rules: [{ host: HOST, paths: [{ ...path, service: 'web' }] }] })
const serviceObjects = [service('web'), endpointSlice('web', ['10.0.0.1'])]
const added = (object: unknown) => ({ type: 'ADDED' as const, object: object as Record<string, unknown> })
const modified = (object: unknown) => ({ type: 'MODIFIED' as const, object: object as Record<string, unknown> })

describe('per-route timeouts', () => {
  it('every route of a host with a timed route has an entry, so a longer path without timeouts never takes a shorter one’s', () => {
    const { model, files } = fullRebuild([
      web({ 'nginx.ingress.kubernetes.io/proxy-read-timeout': '5', 'haproxy-ingress.github.io/timeout-tunnel': '1h' }),
      web({}, 'api', { path: '/api', pathType: 'Prefix' }),
      ingress({ name: 'other', rules: [{ host: 'other.example.com', paths: [{ service: 'web' }] }] }),
      ...serviceObjects,
    ])
    expect(model.hosts.get(HOST)!.routes.map((route) => route.timeouts)).toEqual([{ server: 5000, tunnel: 3600000 }, undefined])
    expect(files.get(FILES.timeoutPrefixMap)).toBe(`${HOST}/ 5000|3600000\n${HOST}/api/ |\n`)
    expect(files.get(FILES.timeoutExactMap)).toBe(`${HOST}/api |\n`)
    expect(model.warnings).toEqual([])
  })

  it('timeout-connect gives the Ingress’s routes a backend of their own with it (HAProxy 2.6 sets it per backend), the Service’s own left as it is', () => {
    const { model, files } = fullRebuild([
      web({ 'nginx.ingress.kubernetes.io/proxy-connect-timeout': '3' }),
      web({}, 'api', { path: '/api', pathType: 'Prefix' }),
      ...serviceObjects,
    ])
    const [connecting, plain] = model.hosts.get(HOST)!.routes
    expect(connecting!.upstream).toEqual({ connectTimeout: 3000 })
    expect(plain!.backendName).toBe('default_web_80')
    const sections = files.get(FILES.backends)!.split('\n\n')
    expect(sections.find((section) => section.startsWith(`backend ${connecting!.backendName}\n`))).toContain('    timeout connect 3000\n')
    expect(sections.find((section) => section.startsWith('backend default_web_80\n'))).not.toContain('timeout connect')
    expect(model.warnings).toEqual([])
  })

  it('a changed timeout is a map edit, without a reload', () => {
    const cluster = new LiveCluster({})
    cluster.apply([...serviceObjects, web({ 'hapedge.io/timeout-server': '30s' })].map(added))
    const changed = cluster.apply([modified(web({ 'hapedge.io/timeout-server': '90s', 'hapedge.io/timeout-tunnel': '2m' }))])
    expect(changed.plan).toMatchObject({ reload: false, reasons: [] })
    expect(changed.plan.maps).toEqual([{ map: FILES.timeoutPrefixMap, key: `${HOST}/`, value: '90000|120000' }])
  })
})
