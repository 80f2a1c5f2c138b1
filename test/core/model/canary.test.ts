import { describe, expect, it } from 'vitest'
import { LiveCluster } from '../../../core/incremental/live-cluster.ts'
import { FILES } from '../../../core/render/files.ts'
import { fullRebuild } from '../../../core/render/full-rebuild.ts'
import { endpointSlice, ingress, service } from '../../support/objects.ts'

/** Canary Ingresses in the model and the maps: which route takes a canary, what is reported, what the maps hold, and what a change costs. */

const HOST = 'shop.example.com'
const NGINX = 'nginx.ingress.kubernetes.io/'
const main = (name = 'web', path = '/', annotations: Record<string, string> = {}) =>
  ingress({ name, createdAt: '2024-01-01T00:00:00Z', annotations, rules: [{ host: HOST, paths: [{ path, pathType: 'Prefix', service: name }] }] })
const canary = (annotations: Record<string, string>, name = 'web-canary', path = '/', createdAt = '2024-02-01T00:00:00Z') =>
  ingress({
    name,
    createdAt,
    annotations: { [`${NGINX}canary`]: 'true', ...annotations },
    rules: [{ host: HOST, paths: [{ path, pathType: 'Prefix', service: name }] }],
  })
const services = (...names: string[]) => names.flatMap((name, i) => [service(name), endpointSlice(name, [`10.0.0.${i + 1}`])])
const added = (object: unknown) => ({ type: 'ADDED' as const, object: object as Record<string, unknown> })
const modified = (object: unknown) => ({ type: 'MODIFIED' as const, object: object as Record<string, unknown> })

describe('a canary Ingress', () => {
  it('becomes the canary of the route it shares a path with instead of a conflict, with its own backend, in the maps', () => {
    const { model, files } = fullRebuild([
      main(),
      main('api', '/api'),
      canary({ [`${NGINX}canary-weight`]: '20', [`${NGINX}canary-by-header`]: 'X-Canary', [`${NGINX}canary-by-cookie`]: 'canary' }),
      ...services('web', 'api', 'web-canary'),
    ])
    expect(model.rejections).toEqual([])
    const routes = model.hosts.get(HOST)!.routes
    expect(routes.map((route) => [route.path, route.owner, route.canary?.owner])).toEqual([
      ['/', 'Ingress default/web', 'Ingress default/web-canary'],
      ['/api', 'Ingress default/api', undefined],
    ])
    expect(routes[0]!.canary).toMatchObject({ backendName: 'default_web-canary_80', weight: 20, total: 100, header: 'x-canary', cookie: 'canary' })
    expect([...model.backends.keys()].sort()).toEqual(['default_api_80', 'default_web-canary_80', 'default_web_80'])
    // Every route of the host has an entry, so /api never falls through to the canary of /.
    expect(files.get(FILES.canaryPrefixMap)).toBe(`${HOST}/ default_web-canary_80|20|100|x-canary|canary|\n${HOST}/api/ none\n`)
    expect(files.get(FILES.canaryExactMap)).toBe(`${HOST}/api none\n`)
    expect(files.get(FILES.frontend)).toContain('req.fhdr(x-canary)')
    expect(files.get(FILES.frontend)).toContain('req.cook(canary)')
  })

  it('lists the values of canary-by-header-value or the pattern in the values map, and reads the hapedge.io spelling', () => {
    const { files } = fullRebuild([
      main(),
      canary({ 'hapedge.io/canary-by-header': 'X-Beta', 'hapedge.io/canary-by-header-pattern': '^(alpha|v2\\.1)$' }),
      ...services('web', 'web-canary'),
    ])
    expect(files.get(FILES.canaryPrefixMap)).toBe(`${HOST}/ default_web-canary_80|0|100|x-beta||${HOST}/|P\n`)
    expect(files.get(FILES.canaryValuesMap)).toBe(`${HOST}/|P|alpha 1\n${HOST}/|P|v2.1 1\n`)
  })

  it('refuses a pattern outside the safe subset, with a warning, and never writes it anywhere', () => {
    const pattern = '^(a|b)$ } if TRUE { always'
    const { model, files } = fullRebuild([
      main(),
      canary({ [`${NGINX}canary-by-header`]: 'X-Beta', [`${NGINX}canary-by-header-pattern`]: pattern }),
      ...services('web', 'web-canary'),
    ])
    expect(model.warnings).toMatchObject([
      { annotation: `${NGINX}canary-by-header-pattern`, reason: expect.stringContaining('no regular expression a cluster writes reaches HAProxy') },
    ])
    for (const text of files.values()) expect(text).not.toContain('TRUE')
    // The header then decides nothing: not "always"/"never", which the pattern replaced.
    expect(files.get(FILES.canaryPrefixMap)).toBe(`${HOST}/ default_web-canary_80|0|100|||\n`)
    for (const unsafe of ['^(a|b))$', '^(?i)a$', '(a+)+', 'a\\1', 'x|^y'])
      expect(fullRebuild([main(), canary({ [`${NGINX}canary-by-header`]: 'X', [`${NGINX}canary-by-header-pattern`]: unsafe })]).model.warnings).toHaveLength(1)
  })

  it('searches the header for a pattern of literals not anchored at both ends (cd|sz, ^v2, beta$), as NGINX does, through a regular expression it makes itself', () => {
    const pattern = (value: string) => {
      const { model, files } = fullRebuild([main(), canary({ [`${NGINX}canary-by-header`]: 'Region', [`${NGINX}canary-by-header-pattern`]: value })])
      expect(model.warnings).toEqual([])
      expect(files.get(FILES.canaryValuesMap)).toBe('')
      return files.get(FILES.canaryPatternsMap)
    }
    const id = `^${HOST.replace(/\./g, '\\.')}\\/\\|P\\|`
    expect(pattern('cd|sz')).toBe(`${id}.*(?:cd|sz) 1\n`)
    expect(pattern('^(v2\\.1|v3)')).toBe(`${id}(?:v2\\.1|v3) 1\n`)
    expect(pattern('(?:beta)$')).toBe(`${id}.*(?:beta)$ 1\n`)
  })

  it('searches the header for any other pattern of the safe subset, re-emitted from its tree (^be+ta, x-(a.*), [0-9]+\\.rc)', () => {
    const key = (value: string) => {
      const { model, files } = fullRebuild([main(), canary({ [`${NGINX}canary-by-header`]: 'Region', [`${NGINX}canary-by-header-pattern`]: value })])
      expect(model.warnings).toEqual([])
      return files.get(FILES.canaryPatternsMap)
    }
    const id = `^${HOST.replace(/\./g, '\\.')}\\/\\|P\\|`
    expect(key('^be+ta')).toBe(`${id}(?:be+ta) 1\n`)
    expect(key('x-(a.*)')).toBe(`${id}.*(?:x-(a.*)) 1\n`)
    expect(key('v[0-9]+\\.rc$')).toBe(`${id}.*(?:v[0-9]+\\.rc$) 1\n`)
  })

  it('is reported, never served, without a main Ingress, as a second canary, or naming the main route’s Service; a refused Ingress is no canary', () => {
    const { model, files } = fullRebuild([
      main(),
      canary({}, 'web-canary'),
      canary({}, 'second', '/', '2024-03-01T00:00:00Z'),
      canary({}, 'orphan', '/nobody'),
      ingress({ name: 'same', annotations: { [`${NGINX}canary`]: 'true' }, rules: [{ host: HOST, paths: [{ path: '/', service: 'web' }] }] }),
      ...services('web', 'web-canary', 'second', 'orphan'),
    ])
    expect(model.rejections.map(({ object, reason }) => [object, reason.replace(/^spec[^:]*: /, '')])).toEqual([
      ['Ingress default/orphan', `no Ingress serves host "${HOST}" Prefix /nobody, so this canary is not served (ingress-nginx skips it too)`],
      ['Ingress default/same', `host "${HOST}" Prefix / of Ingress default/web already sends to this Service: it is no canary`],
      ['Ingress default/second', `host "${HOST}" Prefix / already has the canary Ingress default/web-canary: one canary per path, as in ingress-nginx`],
    ])
    expect(files.get(FILES.prefixMap)).toBe(`${HOST}/ default_web_80\n`)
    const refused = fullRebuild([main(), canary({ [`${NGINX}enable-modsecurity`]: 'true' }), ...services('web', 'web-canary')]).model
    expect(refused.hosts.get(HOST)!.routes[0]!.canary).toBeUndefined()
    expect(refused.rejections.map((rejection) => rejection.reason)).toContainEqual(expect.stringContaining('the Ingress is refused, so it is no canary'))
  })

  it('reports a canary’s TLS entry: the main Ingress’s certificate serves the host', () => {
    const withTls = { ...canary({}), spec: { ...canary({}).spec, tls: [{ hosts: [HOST], secretName: 'canary-tls' }] } }
    const { model } = fullRebuild([main(), withTls, ...services('web', 'web-canary')])
    expect(model.rejections).toEqual([
      { object: 'Ingress default/web-canary', reason: expect.stringMatching(/^spec\.tls\[0\]: a canary Ingress serves no certificate/) },
    ])
    expect(model.hosts.get(HOST)!.routes[0]!.canary?.owner).toBe('Ingress default/web-canary')
  })

  it('warns of the settings a canary does not take (the main Ingress’s apply) and of canary settings without canary: "true"', () => {
    const { model } = fullRebuild([
      main(),
      canary({ [`${NGINX}rewrite-target`]: '/x', [`${NGINX}load-balance`]: 'round_robin', [`${NGINX}canary-by-header-value`]: 'yes' }),
      ingress({ name: 'plain', annotations: { [`${NGINX}canary-weight`]: '50' }, rules: [{ host: 'plain.example.com', paths: [{ service: 'web' }] }] }),
    ])
    expect(model.warnings.map(({ object, annotation, reason }) => [object, annotation, reason])).toEqual([
      ['Ingress default/plain', `${NGINX}canary-weight`, 'ignored: canary is not "true"'],
      ['Ingress default/web-canary', `${NGINX}canary-by-header-value`, 'ignored without canary-by-header'],
      ['Ingress default/web-canary', `${NGINX}rewrite-target`, expect.stringContaining('ignored on a canary Ingress')],
    ])
  })

  it('a changed weight, total or header value is a map edit without a reload; a new header name reloads, naming it', () => {
    const cluster = new LiveCluster({})
    cluster.apply([main(), canary({ 'hapedge.io/canary-weight': '10' }), ...services('web', 'web-canary')].map(added))
    const weighed = cluster.apply([modified(canary({ 'hapedge.io/canary-weight': '30', 'hapedge.io/canary-weight-total': '200' }))])
    expect(weighed.plan).toMatchObject({ reload: false, reasons: [] })
    expect(weighed.plan.maps).toEqual([{ map: FILES.canaryPrefixMap, key: `${HOST}/`, value: 'default_web-canary_80|30|200|||' }])
    const named = cluster.apply([modified(canary({ 'hapedge.io/canary-by-header': 'X-Canary' }))])
    expect(named.plan.reload).toBe(true)
    expect(named.plan.reasons).toContainEqual(expect.stringContaining('is a canary reading header|x-canary'))
  })
})
