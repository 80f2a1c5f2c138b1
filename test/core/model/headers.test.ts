import { describe, expect, it } from 'vitest'
import { LiveCluster } from '../../../core/incremental/live-cluster.ts'
import { MAX_HEADER_RULES } from '../../../core/model/header-rules.ts'
import { FILES } from '../../../core/render/files.ts'
import { fullRebuild } from '../../../core/render/full-rebuild.ts'
import { mapValue } from '../../../core/render/render-headers.ts'
import { endpointSlice, ingress, service } from '../../support/objects.ts'

/** Per-route headers in the model, the maps and the frontend, and what a change costs: a value is a map edit, a name a reload. */

const HOST = 'shop.example.com'
const web = (annotations: Record<string, string>, name = 'web', host = HOST, path = '/') =>
  ingress({ name, annotations, rules: [{ host, paths: [{ path, pathType: 'Prefix', service: 'web' }] }] })
const serviceObjects = [service('web'), endpointSlice('web', ['10.0.0.1'])]
const added = (object: unknown) => ({ type: 'ADDED' as const, object: object as Record<string, unknown> })
const modified = (object: unknown) => ({ type: 'MODIFIED' as const, object: object as Record<string, unknown> })
const deleted = (object: unknown) => ({ type: 'DELETED' as const, object: object as Record<string, unknown> })

describe('per-route headers', () => {
  it('keeps each value in a map, percent-encoded, so no value reaches a map line or a runtime command as syntax', () => {
    const hostile = 'x %[env(HOME)] "q" ; # \\ é'
    const { files, model } = fullRebuild([web({ 'hapedge.io/request-set-header': `X-Value ${hostile}` }), web({}, 'api', HOST, '/api'), ...serviceObjects])
    const value = mapValue('req-set|x-value', hostile)
    expect(value).toMatch(/^[A-Za-z0-9_.~%-]+$/)
    expect(decodeURIComponent(value)).toBe(hostile)
    expect(files.get(FILES.headerValuesMap)).toBe(`${HOST}/|P|req-set|x-value ${value}\n`)
    // Every route of the host has an entry, so a longer path without headers never takes the shorter one's.
    expect(files.get(FILES.headersPrefixMap)).toBe(`${HOST}/ ${HOST}/|P\n${HOST}/api/ -\n`)
    expect(files.get(FILES.frontend)).toContain(
      'http-request set-header x-value %[var(txn.headers),concat(|req-set|x-value),map_str(maps/header-values.map),url_dec]',
    )
    expect(files.get(FILES.frontend)).not.toContain(hostile)
    expect(model.warnings).toEqual([])
  })

  it('a cluster without header rules has no header rules nor lookups in its frontend', () => {
    const { files } = fullRebuild([web({}), ...serviceObjects])
    expect(files.get(FILES.frontend)).not.toContain('txn.headers')
  })

  it('a changed value is a map edit, without a reload', () => {
    const cluster = new LiveCluster({})
    cluster.apply([...serviceObjects, web({ 'hapedge.io/response-set-header': 'Cache-Control no-store' })].map(added))
    const changed = cluster.apply([modified(web({ 'hapedge.io/response-set-header': 'Cache-Control max-age=60, public' }))])
    expect(changed.plan).toMatchObject({ reload: false, reasons: [] })
    expect(changed.plan.maps).toEqual([
      { map: FILES.headerValuesMap, key: `${HOST}/|P|res-set|cache-control`, value: mapValue('res-set|x', 'max-age=60, public') },
    ])
  })

  it('another Ingress with a header name the frontend has already is map edits only; a new name, or the last of one gone, is a reload that names the Ingress and the header', () => {
    const cluster = new LiveCluster({})
    cluster.apply([...serviceObjects, web({ 'hapedge.io/request-set-header': 'X-Team shop' })].map(added))
    const second = web({ 'haproxy.org/request-set-header': 'X-Team blog' }, 'blog', 'blog.example.com')
    expect(cluster.apply([added(second)]).plan).toMatchObject({ reload: false, reasons: [] })

    const renamed = cluster.apply([modified(web({ 'hapedge.io/request-set-header': 'X-Owner shop' }))]).plan
    expect(renamed.reload).toBe(true)
    expect(renamed.reasons).toContain(
      'Ingress default/web gained header rules (request set x-owner): HAProxy names a header in its rules, so a new one is a reload',
    )
    const gone = cluster.apply([deleted(second)]).plan
    expect(gone.reasons).toContain('Ingress default/blog dropped header rules (request set x-team): the frontend drops their rules')
  })

  it('refuses unsafe names, hop-by-hop, framing and hapedge’s own headers, and the request headers it routes by or the Services trust, with a warning each', () => {
    const { files, model } = fullRebuild([
      web({
        'hapedge.io/request-set-header': 'X-Forwarded-Proto https\nX#Comment x\nX-Ok ok',
        'hapedge.io/request-del-header': 'Host, Transfer-Encoding',
        'hapedge.io/response-add-header': 'X-Hapedge-Refused no\nX-Empty ""',
        // A response may set a name that a request may not: hapedge does not route by responses.
        'hapedge.io/response-set-header': 'X-Forwarded-Proto https',
      }),
      ...serviceObjects,
    ])
    expect(model.warnings.map((warning) => [warning.annotation, warning.reason.split(' ')[0]])).toEqual([
      ['hapedge.io/request-del-header', '"host"'],
      ['hapedge.io/request-del-header', '"transfer-encoding"'],
      ['hapedge.io/request-set-header', '"x#comment":'],
      ['hapedge.io/request-set-header', '"x-forwarded-proto"'],
      ['hapedge.io/response-add-header', '"X-Empty"'],
      ['hapedge.io/response-add-header', '"x-hapedge-refused"'],
    ])
    expect(files.get(FILES.headerValuesMap)).toBe(`${HOST}/|P|req-set|x-ok ok\n${HOST}/|P|res-set|x-forwarded-proto https\n`)
  })

  it('keeps at most MAX_HEADER_RULES rules of one Ingress, and says so', () => {
    const many = Array.from({ length: MAX_HEADER_RULES + 1 }, (_, n) => `X-H${n} v`).join('\n')
    const { files, model } = fullRebuild([web({ 'hapedge.io/request-add-header': many }), ...serviceObjects])
    expect(files.get(FILES.headerValuesMap)!.trim().split('\n')).toHaveLength(MAX_HEADER_RULES)
    expect(model.warnings).toMatchObject([{ annotation: 'hapedge.io/request-add-header', reason: expect.stringContaining(`more than ${MAX_HEADER_RULES}`) }])
  })
})
