import { describe, expect, it } from 'vitest'
import { LiveCluster } from '../../../core/incremental/live-cluster.ts'
import { FILES } from '../../../core/render/files.ts'
import { fullRebuild } from '../../../core/render/full-rebuild.ts'
import { mapValue } from '../../../core/render/render-headers.ts'
import { configMap, endpointSlice, ingress, service } from '../../support/objects.ts'

/** custom-headers: response headers from a ConfigMap of the Ingress's namespace, each value a map value. */

const HOST = 'shop.example.com'
const ANNOTATION = 'nginx.ingress.kubernetes.io/custom-headers'
const web = (annotations: Record<string, string>, name = 'web', host = HOST) =>
  ingress({ name, annotations, rules: [{ host, paths: [{ path: '/', pathType: 'Prefix', service: 'web' }] }] })
const serviceObjects = [service('web'), endpointSlice('web', ['10.0.0.1'])]
const securityHeaders = (data: Record<string, string>, namespace = 'default') => configMap(data, 'security-headers', namespace)
const added = (object: unknown) => ({ type: 'ADDED' as const, object: object as Record<string, unknown> })
const modified = (object: unknown) => ({ type: 'MODIFIED' as const, object: object as Record<string, unknown> })
const deleted = (object: unknown) => ({ type: 'DELETED' as const, object: object as Record<string, unknown> })
const valueKey = (name: string) => `${HOST}/|P|res-set|${name}`

describe('custom-headers', () => {
  it.each([ANNOTATION, 'hapedge.io/custom-headers'])(
    '%s sets each entry of the ConfigMap it names as a response header, its value percent-encoded in the values map',
    (key) => {
      const hostile = 'default-src \'self\'; report-uri "/r" %[env(HOME)]'
      const { files, model } = fullRebuild([
        web({ [key]: 'security-headers' }),
        securityHeaders({ 'X-Frame-Options': 'DENY', 'Content-Security-Policy': hostile }),
        ...serviceObjects,
      ])
      expect(model.warnings).toEqual([])
      expect(files.get(FILES.headerValuesMap)).toBe(
        `${valueKey('content-security-policy')} ${mapValue('res-set|x', hostile)}\n${valueKey('x-frame-options')} DENY\n`,
      )
      expect(files.get(FILES.frontend)).toContain('http-response set-header x-frame-options %[var(txn.headers),concat(|res-set|x-frame-options)')
      expect(files.get(FILES.frontend)).not.toContain('report-uri')
    },
  )

  it('refuses hop-by-hop and framing names, hapedge’s own, unsafe names and values with control characters, with a warning each; response-set-header wins over an entry it also sets', () => {
    const { files, model } = fullRebuild([
      web({ [ANNOTATION]: 'default/security-headers', 'hapedge.io/response-set-header': 'X-Frame-Options SAMEORIGIN' }),
      securityHeaders({ Connection: 'close', 'X-Hapedge-Refused': 'no', 'X-Two-Lines': 'a\nb', 'X-Frame-Options': 'DENY', 'X-Ok': 'ok' }),
      ...serviceObjects,
    ])
    expect(files.get(FILES.headerValuesMap)).toBe(`${valueKey('x-frame-options')} SAMEORIGIN\n${valueKey('x-ok')} ok\n`)
    expect(model.warnings.map(({ annotation, reason }) => [annotation, reason.split(' ')[0]])).toEqual([
      ['hapedge.io/response-set-header', '"X-Frame-Options"'],
      [ANNOTATION, '"X-Two-Lines":'],
      [ANNOTATION, '"connection"'],
      [ANNOTATION, '"x-hapedge-refused"'],
    ])
  })

  it('reads no ConfigMap of another namespace (another tenant’s), and serves the routes without its headers, with a warning', () => {
    const { files, model } = fullRebuild([
      web({ [ANNOTATION]: 'other/security-headers' }),
      securityHeaders({ 'X-Frame-Options': 'DENY' }, 'other'),
      ...serviceObjects,
    ])
    expect(files.get(FILES.headerValuesMap)).toBe('')
    expect(model.warnings).toEqual([
      { object: 'Ingress default/web', annotation: ANNOTATION, reason: expect.stringContaining('ConfigMap other/security-headers is in another namespace') },
    ])
    expect(files.get(FILES.hostsMap)).toContain(HOST)
  })

  it('serves the routes without headers while the ConfigMap is missing or malformed, and says so (headers restrict no access)', () => {
    const missing = fullRebuild([web({ [ANNOTATION]: 'security-headers' }), ...serviceObjects])
    expect(missing.files.get(FILES.headerValuesMap)).toBe('')
    expect(missing.model.rejections).toEqual([])
    expect(missing.model.warnings).toEqual([
      { object: 'Ingress default/web', annotation: ANNOTATION, reason: expect.stringContaining('ConfigMap default/security-headers is not known to hapedge') },
    ])
    const malformed = fullRebuild([web({ [ANNOTATION]: 'security-headers' }), securityHeaders({ 'X-Big': 'x'.repeat(5000) }), ...serviceObjects])
    expect(malformed.model.warnings).toEqual(missing.model.warnings)
    expect(malformed.model.rejections).toEqual([])
  })

  it('a changed value in the ConfigMap is a map edit without a reload; a new name is a reload naming the header; its deletion drops the headers and warns', () => {
    const cluster = new LiveCluster({})
    cluster.apply([...serviceObjects, web({ [ANNOTATION]: 'security-headers' }), securityHeaders({ 'X-Frame-Options': 'DENY' })].map(added))
    const changed = cluster.apply([modified(securityHeaders({ 'X-Frame-Options': 'SAMEORIGIN' }))])
    expect(changed.plan).toMatchObject({ reload: false, reasons: [] })
    expect(changed.plan.maps).toEqual([{ map: FILES.headerValuesMap, key: valueKey('x-frame-options'), value: 'SAMEORIGIN' }])

    const renamed = cluster.apply([modified(securityHeaders({ 'X-Frame-Options': 'SAMEORIGIN', 'Referrer-Policy': 'no-referrer' }))]).plan
    expect(renamed.reasons).toContain(
      'Ingress default/web gained header rules (response set referrer-policy): HAProxy names a header in its rules, so a new one is a reload',
    )
    const gone = cluster.apply([deleted(securityHeaders({}))])
    expect(gone.plan.reasons).toContain(
      'Ingress default/web dropped header rules (response set referrer-policy, response set x-frame-options): the frontend drops their rules',
    )
    expect(cluster.files().get(FILES.headerValuesMap)).toBe('')
  })

  it('a ConfigMap no Ingress names, or another namespace’s, changes nothing', () => {
    const cluster = new LiveCluster({})
    cluster.apply([...serviceObjects, web({ [ANNOTATION]: 'security-headers' }), securityHeaders({ 'X-Frame-Options': 'DENY' })].map(added))
    const before = cluster.files()
    const unrelated = cluster.apply([
      added(configMap({ 'X-Frame-Options': 'SAMEORIGIN' }, 'security-headers', 'other')),
      added(configMap({ a: 'b' }, 'unrelated', 'default')),
    ])
    expect(unrelated.plan).toMatchObject({ reload: false, reasons: [], maps: [] })
    expect(cluster.files()).toEqual(before)
  })
})
