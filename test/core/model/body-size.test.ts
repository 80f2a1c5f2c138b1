import { describe, expect, it } from 'vitest'
import { LiveCluster } from '../../../core/incremental/live-cluster.ts'
import { STREAMED_BODY_CHECKED } from '../../../core/model/body-size-notices.ts'
import { FILES } from '../../../core/render/files.ts'
import { fullRebuild } from '../../../core/render/full-rebuild.ts'
import { configMap, endpointSlice, ingress, service } from '../../support/objects.ts'

/** Per-route body size limits in the model and the maps: which routes have them, what the maps hold, what is warned, and what a change costs. */

const HOST = 'upload.example.com'
const web = (annotations: Record<string, string>, name = 'web', path: { path: string; pathType: 'Prefix' | 'Exact' } = { path: '/', pathType: 'Prefix' }) =>
  ingress({ name, annotations, rules: [{ host: HOST, paths: [{ ...path, service: 'web' }] }] })
const serviceObjects = [service('web'), endpointSlice('web', ['10.0.0.1'])]
const added = (object: unknown) => ({ type: 'ADDED' as const, object: object as Record<string, unknown> })
const modified = (object: unknown) => ({ type: 'MODIFIED' as const, object: object as Record<string, unknown> })

describe('per-route body size limits', () => {
  it('reads every spelling into bytes, 0 and unlimited as no limit, and every route of the host has an entry', () => {
    const { model, files } = fullRebuild([
      web({ 'nginx.ingress.kubernetes.io/proxy-body-size': '4k' }),
      web({ 'haproxy-ingress.github.io/proxy-body-size': 'unlimited' }, 'open', { path: '/open', pathType: 'Prefix' }),
      web({ 'nginx.org/client-max-body-size': '0' }, 'zero', { path: '/zero', pathType: 'Exact' }),
      web({ 'hapedge.io/proxy-body-size': '100' }, 'small', { path: '/small', pathType: 'Prefix' }),
      web({}, 'plain', { path: '/plain', pathType: 'Prefix' }),
      ingress({ name: 'other', rules: [{ host: 'other.example.com', paths: [{ service: 'web' }] }] }),
      ...serviceObjects,
    ])
    expect(model.hosts.get(HOST)!.routes.map((route) => [route.path, route.bodySize])).toEqual([
      ['/', 4096],
      ['/open', null],
      ['/plain', undefined],
      ['/small', 100],
      ['/zero', null],
    ])
    expect(files.get(FILES.bodySizePrefixMap)).toBe(`${HOST}/ 4096\n${HOST}/open/ 0\n${HOST}/plain/ -1\n${HOST}/small/ 100\n`)
    expect(files.get(FILES.bodySizeExactMap)).toBe(`${HOST}/open 0\n${HOST}/plain -1\n${HOST}/small 100\n${HOST}/zero 0\n`)
    expect(model.warnings).toEqual([])
  })

  it('a limit larger than a streamed body can be checked against is honoured with a warning that says for which bodies', () => {
    const { model } = fullRebuild([web({ 'nginx.ingress.kubernetes.io/proxy-body-size': `${STREAMED_BODY_CHECKED + 1}` }), ...serviceObjects])
    expect(model.warnings).toEqual([
      {
        object: 'Ingress default/web',
        annotation: 'nginx.ingress.kubernetes.io/proxy-body-size',
        reason: expect.stringMatching(
          /^enforced on bodies with Content-Length; a body without it \(chunked, or HTTP\/2 without content-length\) is checked on what HAProxy 2\.6 buffers/,
        ),
      },
    ])
    expect(fullRebuild([web({ 'nginx.ingress.kubernetes.io/proxy-body-size': `${STREAMED_BODY_CHECKED}` }), ...serviceObjects]).model.warnings).toEqual([])
  })

  it('a changed limit is a map edit, without a reload; a limit on a host that had none fills its maps, also at runtime', () => {
    const cluster = new LiveCluster({})
    cluster.apply([...serviceObjects, web({})].map(added))
    const first = cluster.apply([modified(web({ 'hapedge.io/proxy-body-size': '1k' }))])
    expect(first.plan).toMatchObject({ reload: false, reasons: [] })
    expect(first.plan.maps).toEqual([{ map: FILES.bodySizePrefixMap, key: `${HOST}/`, value: '1024' }])
    const changed = cluster.apply([modified(web({ 'nginx.ingress.kubernetes.io/proxy-body-size': '0' }))])
    expect(changed.plan).toMatchObject({ reload: false, reasons: [] })
    expect(changed.plan.maps).toEqual([{ map: FILES.bodySizePrefixMap, key: `${HOST}/`, value: '0' }])
  })

  it('the settings ConfigMap’s proxy-body-size is the limit of routes that set none, set in global, so a change reloads', () => {
    const cluster = new LiveCluster({})
    cluster.apply([...serviceObjects, web({}), configMap({ 'proxy-body-size': '1m' })].map(added))
    expect(cluster.files().get(FILES.global)).toContain(`    set-var proc.body_size_default int(${1024 ** 2})\n`)
    const changed = cluster.apply([modified(configMap({ 'proxy-body-size': '0' }))])
    expect(changed.plan).toMatchObject({ reload: true, reasons: ['global settings changed'] })
    expect(cluster.files().get(FILES.global)).not.toContain('body_size_default')
    const unreadable = fullRebuild([...serviceObjects, web({}), configMap({ 'proxy-body-size': 'big' })])
    expect(unreadable.files.get(FILES.global)).not.toContain('body_size_default')
    expect(unreadable.model.rejections).toMatchObject([{ object: 'ConfigMap hapedge/hapedge', reason: expect.stringContaining('proxy-body-size') }])
  })
})
