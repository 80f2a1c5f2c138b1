import { describe, expect, it } from 'vitest'
import { LiveCluster } from '../../../core/incremental/live-cluster.ts'
import { readRegexPath } from '../../../core/model/regex-path.ts'
import { FILES } from '../../../core/render/files.ts'
import { fullRebuild } from '../../../core/render/full-rebuild.ts'
import { endpointSlice, ingress, service } from '../../support/objects.ts'

/** use-regex paths that are no Prefix form: read through the safe-regex reader into regex routes, their rewrites, what is refused, what a change costs. */

const HOST = 'shop.example.com'
const serviceObjects = [service('web'), endpointSlice('web', ['10.0.0.1'])]
const web = (annotations: Record<string, string>, paths: string[]) =>
  ingress({
    name: 'web',
    annotations,
    rules: [{ host: HOST, paths: paths.map((path) => ({ path, pathType: 'ImplementationSpecific' as const, service: 'web' })) }],
  })
const added = (object: unknown) => ({ type: 'ADDED' as const, object: object as Record<string, unknown> })
const modified = (object: unknown) => ({ type: 'MODIFIED' as const, object: object as Record<string, unknown> })
const CAFE = { 'nginx.org/path-regex': 'case_sensitive', 'nginx.org/rewrite-target': '/beverages/$1/$2' }

describe('readRegexPath', () => {
  it('reads a path anchored at its start as ingress-nginx does, normalised, with its capture groups', () => {
    expect(readRegexPath('/menu/([^/]+)/([^/]+)', false)).toEqual({ expression: '/menu/([^\\/]+)/([^\\/]+)', captures: 2 })
    expect(readRegexPath('^/api/v\\d+', true)).toEqual({ expression: '(?i)/api/v[0-9]+', captures: 0 })
  })

  it.each([
    ['a construct outside the safe subset', '/a(?=b)', /path "\/a\(\?=b\)" is not served: the regular expression has a lookahead at position 3/],
    ['nested unbounded quantifiers', '/(a+)+', /catastrophic backtracking/],
    ['a start anchor after the first character', '/a|^/b', /a "\^" other than its first character never matches after the host/],
    ['an expression that does not start with a slash', '(/a|/b)', /must start with "\/"/],
  ])('refuses %s, naming the path', (_, path, reason) => {
    expect(readRegexPath(path, false)).toEqual({ refused: expect.stringMatching(reason) })
  })
})

describe('regex routes in the model and the maps', () => {
  it('serves the path as a Regex route, keyed in the route maps by a key only its regex map line gives', () => {
    const { model, files } = fullRebuild([web(CAFE, ['/menu/([^/]+)/([^/]+)']), ...serviceObjects])
    expect(model.rejections).toEqual([])
    const [route] = model.hosts.get(HOST)!.routes
    expect(route).toMatchObject({ match: 'Regex', path: '~/menu/([^\\/]+)/([^\\/]+)', rewrite: { regexTarget: '/beverages/\\1/\\2' } })
    expect(files.get(FILES.exactMap)).toContain(`${HOST}~/menu/([^\\/]+)/([^\\/]+) `)
    expect(files.get(FILES.rewriteExactMap)).toBe(`${HOST}~/menu/([^\\/]+)/([^\\/]+) ||regex||\n`)
  })

  it('orders a host’s regex lines by the length of their expression, the longest first', () => {
    const { files } = fullRebuild([web({ 'nginx.ingress.kubernetes.io/use-regex': 'true' }, ['/a[0-9]', '/a[0-9]/b[0-9]+/c', '/a[0-9]/b']), ...serviceObjects])
    const values = files
      .get(FILES.pathRegexMap)!
      .trim()
      .split('\n')
      .map((line) => line.split(' ')[1])
    expect(values).toEqual([`${HOST}~(?i)/a[0-9]/b[0-9]+/c`, `${HOST}~(?i)/a[0-9]/b`, `${HOST}~(?i)/a[0-9]`])
  })

  it.each([
    ['a capture the path lacks', '/beverages/$3', /refers to \$3, but the path has 2 capture groups/],
    ['an NGINX variable', '/x/$host', /has a "\$" that names no capture group/],
  ])('refuses a target naming %s, and the path is not served', (_, target, reason) => {
    const { model } = fullRebuild([web({ ...CAFE, 'nginx.org/rewrite-target': target }, ['/menu/([^/]+)/([^/]+)']), ...serviceObjects])
    expect(model.rejections).toEqual([{ object: 'Ingress default/web', reason: expect.stringMatching(reason) }])
    expect(model.hosts.get(HOST)).toBeUndefined()
  })

  it('a changed expression or target is a runtime edit of the regex maps, without a reload', () => {
    const cluster = new LiveCluster({})
    cluster.apply([...serviceObjects, web(CAFE, ['/menu/([^/]+)/([^/]+)'])].map(added))
    const changed = cluster.apply([modified(web({ ...CAFE, 'nginx.org/rewrite-target': '/drinks/$2' }, ['/carte/([a-z]+)/([a-z]+)']))])
    expect(changed.plan).toMatchObject({ reload: false, reasons: [] })
    expect(new Set(changed.plan.maps.map(({ map }) => map))).toEqual(
      new Set([FILES.exactMap, FILES.rewriteExactMap, FILES.pathRegexMap, FILES.rewriteRegexMap]),
    )
  })
})
