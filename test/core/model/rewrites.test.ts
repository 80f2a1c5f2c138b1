import { describe, expect, it } from 'vitest'
import { LiveCluster } from '../../../core/incremental/live-cluster.ts'
import { ingress as ingressSchema } from '../../../core/kube/ingress.ts'
import { readPathPattern } from '../../../core/model/path-pattern.ts'
import { FILES } from '../../../core/render/files.ts'
import { fullRebuild } from '../../../core/render/full-rebuild.ts'
import { endpointSlice, ingress, service } from '../../support/objects.ts'

/** rewrite-target, use-regex and x-forwarded-prefix in the model and the maps: what is read, what is refused, and what a change costs. */

const HOST = 'shop.example.com'
const serviceObjects = [service('web'), endpointSlice('web', ['10.0.0.1'])]
const web = (annotations: Record<string, string>, paths: { path: string; pathType?: 'Prefix' | 'Exact' | 'ImplementationSpecific' }[] = [{ path: '/app' }]) =>
  ingress({ name: 'web', annotations, rules: [{ host: HOST, paths: paths.map(({ path, pathType = 'Prefix' }) => ({ path, pathType, service: 'web' })) }] })
const added = (object: unknown) => ({ type: 'ADDED' as const, object: object as Record<string, unknown> })
const modified = (object: unknown) => ({ type: 'MODIFIED' as const, object: object as Record<string, unknown> })

describe('a regular expression path', () => {
  it.each([
    ['/app(/|$)(.*)', { prefix: '/app', captures: ['slash', 'tail'], servesPrefixItself: false }],
    ['^/app/v1(/|$)(.*)', { prefix: '/app/v1', captures: ['slash', 'tail'], servesPrefixItself: false }],
    ['/app(/.*)?$', { prefix: '/app', captures: ['rest'], servesPrefixItself: false }],
    ['/app(/.*|$)', { prefix: '/app', captures: ['rest'], servesPrefixItself: false }],
    ['/app(/|$)', { prefix: '/app', captures: ['slash'], servesPrefixItself: false }],
    ['/api/(.*)', { prefix: '/api', captures: ['tail'], servesPrefixItself: true }],
    ['/api/.*', { prefix: '/api', captures: [], servesPrefixItself: true }],
    ['/(.*)', { prefix: '/', captures: ['tail'], servesPrefixItself: false }],
    ['/something/?(.*)', { prefix: '/something', captures: ['tail'], servesPrefixItself: false, servesLess: true }],
    ['/?(.*)', { prefix: '/', captures: ['tail'], servesPrefixItself: false }],
    ['/v1\\.0(/|$)(.*)', { prefix: '/v1.0', captures: ['slash', 'tail'], servesPrefixItself: false }],
    ['/static/', { prefix: '/static', captures: [], servesPrefixItself: false }],
  ])('%s is served as a Prefix path with known captures', (path, expected) => {
    expect(readPathPattern(path)).toEqual(expected)
  })

  it.each([
    '/api/v[0-9]+',
    '/app(.*)',
    '/(a+)+$',
    '/(?i)app',
    '/a\\d',
    '/a{1000}',
    '/x%[env(HOME)](/|$)(.*)',
    '/b"(/|$)(.*)',
    "/c'(/|$)(.*)",
    '/d(/|$)(.*)(.*)',
    '/e//(/|$)(.*)',
    `/${'a'.repeat(300)}(/|$)(.*)`,
  ])('%s is refused, naming it', (path) => {
    const read = readPathPattern(path)
    expect(read).toHaveProperty('refused')
    expect((read as { refused: string }).refused).toMatch(/is not one hapedge can route|longer than/)
  })
})

describe('an Ingress’s paths as written', () => {
  const parse = (annotations: Record<string, string>, path: string, pathType = 'ImplementationSpecific') =>
    ingressSchema.safeParse(web(annotations, [{ path, pathType: pathType as 'Prefix' }]))
  const issues = (result: ReturnType<typeof parse>) => result.error?.issues.map((issue) => [issue.path.join('.'), issue.message]) ?? []

  it('a regular expression is a path only under use-regex (or ingress-nginx’s rewrite-target), and never for an Exact path', () => {
    expect(issues(parse({}, '/app(/|$)(.*)'))).toEqual([
      ['spec.rules.0.http.paths.0.path', expect.stringContaining('may contain only RFC 3986 path characters')],
    ])
    expect(issues(parse({ 'haproxy-ingress.github.io/rewrite-target': '/' }, '/app(/|$)(.*)'))).toHaveLength(1)
    expect(issues(parse({ 'nginx.ingress.kubernetes.io/use-regex': 'false', 'nginx.ingress.kubernetes.io/rewrite-target': '/' }, '/a|b'))).toHaveLength(1)
    expect(issues(parse({ 'nginx.ingress.kubernetes.io/use-regex': 'true' }, '/app(/|$)(.*)', 'Exact'))).toHaveLength(1)
    expect(issues(parse({ 'nginx.ingress.kubernetes.io/use-regex': 'true' }, '/app(/|$)(.*)'))).toEqual([])
    expect(issues(parse({ 'nginx.ingress.kubernetes.io/rewrite-target': '/$2' }, '/app(/|$)(.*)'))).toEqual([])
    expect(issues(parse({ 'nginx.org/path-regex': 'case_sensitive' }, '/tea/[A-Z0-9]'))).toEqual([])
  })

  it("NGINX Inc.'s path-regex: exact serves every path of the Ingress as an Exact path, whatever its pathType", () => {
    const { model } = fullRebuild([
      web({ 'nginx.org/path-regex': 'exact' }, [{ path: '/tea/' }, { path: '/coffee', pathType: 'ImplementationSpecific' }]),
      ...serviceObjects,
    ])
    expect(model.hosts.get(HOST)?.routes.map(({ match, path }) => `${match} ${path}`)).toEqual(['Exact /coffee', 'Exact /tea/'])
    expect(model.warnings).toEqual([])
    expect(issues(parse({ 'nginx.org/path-regex': 'exact' }, '/tea/[A-Z0-9]'))).toHaveLength(1)
  })

  it('whitespace and control characters are refused even under use-regex', () => {
    for (const path of ['/a b', '/a\nb', '/a\tb', '/é']) expect(issues(parse({ 'nginx.ingress.kubernetes.io/use-regex': 'true' }, path))).not.toEqual([])
  })
})

describe('rewrites in the model and the maps', () => {
  it('keeps each route’s prefix, target parts and X-Forwarded-Prefix in the rewrite maps, every route of the host with an entry', () => {
    const { model, files } = fullRebuild([
      web({ 'nginx.ingress.kubernetes.io/rewrite-target': '/$2', 'nginx.ingress.kubernetes.io/x-forwarded-prefix': '/app' }, [{ path: '/app(/|$)(.*)' }]),
      ingress({ name: 'other', rules: [{ host: HOST, paths: [{ path: '/', pathType: 'Prefix', service: 'web' }] }] }),
      ...serviceObjects,
    ])
    expect(model.hosts.get(HOST)!.routes.map((route) => [route.path, route.rewrite])).toEqual([
      ['/', undefined],
      ['/app', { path: { before: '/', capture: 'tail', after: '' }, forwardedPrefix: '/app' }],
    ])
    expect(files.get(FILES.rewritePrefixMap)).toBe(`${HOST}/ -\n${HOST}/app/ /app|/|tail||/app\n`)
    expect(files.get(FILES.rewriteExactMap)).toBe(`${HOST}/app /app|/|tail||/app\n`)
    expect(model.warnings).toEqual([])
    expect(model.rejections).toEqual([])
  })

  it('refuses a path whose target names a capture it lacks, or an NGINX variable, naming the annotation', () => {
    const refusedFor = (annotations: Record<string, string>, path: string) =>
      fullRebuild([web(annotations, [{ path }, { path: '/kept' }]), ...serviceObjects]).model.rejections.map((rejection) => rejection.reason)
    expect(refusedFor({ 'nginx.ingress.kubernetes.io/rewrite-target': '/$3' }, '/app(/|$)(.*)')).toEqual([
      'spec.rules[0].http.paths[0].path: nginx.ingress.kubernetes.io/rewrite-target "/$3" refers to $3, but the path has 2 capture groups; this path is not served',
      expect.stringContaining('paths[1].path: nginx.ingress.kubernetes.io/rewrite-target "/$3" refers to $3, but the path has no capture group'),
    ])
    expect(refusedFor({ 'haproxy-ingress.github.io/rewrite-target': '/$1' }, '/app')).toEqual([
      expect.stringContaining(
        'haproxy-ingress.github.io/rewrite-target "/$1" refers to $1, but the path has no capture group (only a use-regex path has them)',
      ),
      expect.stringContaining('paths[1].path'),
    ])
    expect(refusedFor({ 'hapedge.io/use-regex': 'true', 'hapedge.io/rewrite-target': '/$host$1' }, '/(.*)')[0]).toContain('NGINX variables are not expanded')
    expect(refusedFor({ 'hapedge.io/use-regex': 'true', 'hapedge.io/rewrite-target': '/$2/$1' }, '/app(/|$)(.*)')[0]).toContain('more than one capture group')
  })

  it('warns that /something/?(.*) (ingress-nginx’s older example) is served as its Prefix path, without /somethingx', () => {
    const { model } = fullRebuild([web({ 'nginx.ingress.kubernetes.io/rewrite-target': '/$1' }, [{ path: '/something/?(.*)' }]), ...serviceObjects])
    expect(model.warnings.map(({ reason }) => reason)).toEqual([
      'spec.rules[0].http.paths[0].path "/something/?(.*)" is served as the Prefix path /something: /something followed by other characters than "/" (/somethingx) is not served by it',
    ])
    expect(model.hosts.get(HOST)!.routes.map((route) => route.rewrite)).toEqual([{ path: { before: '/', capture: 'tail', after: '' } }])
  })

  it('warns that a form needing a slash after its prefix serves the prefix itself too', () => {
    const { model } = fullRebuild([web({ 'nginx.ingress.kubernetes.io/rewrite-target': '/$1' }, [{ path: '/api/(.*)' }]), ...serviceObjects])
    expect(model.warnings).toEqual([
      {
        object: 'Ingress default/web',
        annotation: 'nginx.ingress.kubernetes.io/rewrite-target',
        reason: 'spec.rules[0].http.paths[0].path "/api/(.*)" is served as the Prefix path /api, which serves /api itself too',
      },
    ])
  })

  it('warns that case-insensitive matching is not honoured where the value asks for it (ingress-nginx’s "true" only implies it)', () => {
    const warned = (annotations: Record<string, string>) =>
      fullRebuild([web(annotations, [{ path: '/app(/|$)(.*)' }]), ...serviceObjects]).model.warnings.map(({ annotation, reason }) => [annotation, reason])
    expect(warned({ 'nginx.org/path-regex': 'case_insensitive' })).toEqual([
      [
        'nginx.org/path-regex',
        expect.stringContaining('paths served as Prefix paths (a literal prefix and one of the forms that select it) are matched case-sensitively'),
      ],
    ])
    expect(warned({ 'hapedge.io/use-regex': 'case-insensitive' })).toHaveLength(1)
    expect(warned({ 'nginx.org/path-regex': 'case_sensitive' })).toEqual([])
    expect(warned({ 'nginx.ingress.kubernetes.io/use-regex': 'true' })).toEqual([])
    expect(warned({ 'hapedge.io/use-regex': 'true' })).toEqual([])
  })

  it('honours case-insensitive matching, without a warning, for a path served as a regex route', () => {
    const { model } = fullRebuild([web({ 'nginx.org/path-regex': 'case_insensitive' }, [{ path: '/api/v[0-9]+' }]), ...serviceObjects])
    expect(model.warnings).toEqual([])
    expect(model.hosts.get(HOST)!.routes.map(({ match, path }) => [match, path])).toEqual([['Regex', '~(?i)/api/v[0-9]+']])
  })

  it('a changed target, X-Forwarded-Prefix or regular expression path is a map edit, without a reload', () => {
    const cluster = new LiveCluster({})
    cluster.apply([...serviceObjects, web({ 'nginx.ingress.kubernetes.io/rewrite-target': '/' })].map(added))
    const target = cluster.apply([
      modified(web({ 'nginx.ingress.kubernetes.io/rewrite-target': '/v2', 'nginx.ingress.kubernetes.io/x-forwarded-prefix': '/app' })),
    ])
    expect(target.plan).toMatchObject({ reload: false, reasons: [] })
    expect(target.plan.maps).toEqual([
      { map: FILES.rewriteExactMap, key: `${HOST}/app`, value: '/app|/v2|rest||/app' },
      { map: FILES.rewritePrefixMap, key: `${HOST}/app/`, value: '/app|/v2|rest||/app' },
    ])
    const regex = cluster.apply([modified(web({ 'nginx.ingress.kubernetes.io/rewrite-target': '/$2' }, [{ path: '/api(/|$)(.*)' }]))])
    expect(regex.plan).toMatchObject({ reload: false, reasons: [] })
  })
})
