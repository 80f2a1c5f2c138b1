import { describe, expect, it } from 'vitest'
import { DEFAULT_REFUSAL_STATUS, REFUSAL_STATUSES } from '../../../core/annotations/limit-values.ts'
import { LiveCluster } from '../../../core/incremental/live-cluster.ts'
import { DEFAULT_BURST_MULTIPLIER, limitId, LIMIT_WINDOWS, limitsOf, periodWindow, TABLE_SIZE } from '../../../core/model/route-limits.ts'
import { readSettings } from '../../../core/model/settings.ts'
import { FILES } from '../../../core/render/files.ts'
import { fullRebuild } from '../../../core/render/full-rebuild.ts'
import { limitRules, limitValue } from '../../../core/render/render-limits.ts'
import { configMap, endpointSlice, ingress, service } from '../../support/objects.ts'

/** Rate and connection limits in the model and the maps: what each spelling asks for, what is warned, and what a change costs. */

const HOST = 'api.example.com'
const web = (annotations: Record<string, string>, name = 'web', path = '/') =>
  ingress({ name, annotations, rules: [{ host: HOST, paths: [{ path, pathType: 'Prefix', service: 'web' }] }] })
const serviceObjects = [service('web'), endpointSlice('web', ['10.0.0.1'])]
const owner = (name: string) => `Ingress default/${name}`
const modified = (object: unknown) => ({ type: 'MODIFIED' as const, object: object as Record<string, unknown> })
const added = (object: unknown) => ({ type: 'ADDED' as const, object: object as Record<string, unknown> })

describe('rate and connection limits', () => {
  it('holds a rate with its burst over its period and sixty of them: ingress-nginx’s multiplier, 5 unless set', () => {
    const rps = 4
    expect(limitsOf({ 'limit-rps': rps }, owner('web'))).toEqual({
      id: limitId(owner('web')),
      windows: { '1s': rps + rps * DEFAULT_BURST_MULTIPLIER, '1m': 60 * rps + rps * DEFAULT_BURST_MULTIPLIER },
    })
    expect(limitsOf({ 'limit-rpm': rps, 'limit-burst-multiplier': 0 }, owner('web'))!.windows).toEqual({ '1m': rps, '1h': 60 * rps })
    // Both: each window holds the tighter of the two.
    expect(limitsOf({ 'limit-rps': 10, 'limit-rpm': 60, 'limit-burst-multiplier': 0 }, owner('web'))!.windows).toEqual({ '1s': 10, '1m': 60, '1h': 3600 })
    expect(limitsOf({ 'limit-connections': 3, 'limit-status-code': 503 }, owner('web'))).toEqual({
      id: limitId(owner('web')),
      windows: {},
      connections: 3,
      status: 503,
    })
    expect(limitsOf({ 'limit-burst-multiplier': 3, 'limit-allowlist': { ranges: ['10.0.0.0/8'], exceptions: [] } }, owner('web'))).toBeUndefined()
  })

  it('counts haproxytech’s period over the longest window within it, never more than asked within the period', () => {
    for (const { name, ms } of LIMIT_WINDOWS) expect(periodWindow(7, ms)).toEqual([name, 7])
    expect(periodWindow(30, 30_000)).toEqual(['1s', 1])
    expect(periodWindow(10, 10_000)).toEqual(['1s', 1])
    expect(periodWindow(5, 500)).toEqual(['1s', 10])
    expect(periodWindow(120, 7_200_000)).toEqual(['1h', 60])
  })

  it('reads each spelling with its controller’s defaults: haproxy-ingress and NGINX Inc. without a burst, haproxytech answering 403', () => {
    const { model } = fullRebuild([
      web({ 'nginx.ingress.kubernetes.io/limit-rps': '2' }, 'nginx', '/nginx'),
      web({ 'haproxy-ingress.github.io/limit-rps': '2' }, 'hi', '/hi'),
      web({ 'haproxy.org/rate-limit-requests': '2', 'haproxy.org/rate-limit-period': '1m' }, 'ht', '/ht'),
      web({ 'nginx.org/limit-req-rate': '2r/m' }, 'ni', '/ni'),
      web({ 'hapedge.io/limit-rps': '1', 'nginx.ingress.kubernetes.io/limit-rps': '3' }, 'both', '/both'),
      web({}, 'plain', '/plain'),
      ...serviceObjects,
    ])
    const limits = Object.fromEntries(model.hosts.get(HOST)!.routes.map((route) => [route.path, route.limits]))
    expect(limits).toEqual({
      '/both': limitsOf({ 'limit-rps': 1 }, owner('both')),
      '/hi': { id: limitId(owner('hi')), windows: { '1s': 2, '1m': 120 } },
      '/ht': { id: limitId(owner('ht')), windows: { '1m': 2 }, status: 403 },
      '/nginx': limitsOf({ 'limit-rps': 2 }, owner('nginx')),
      '/ni': { id: limitId(owner('ni')), windows: { '1m': 2 } },
      '/plain': undefined,
    })
    // hapedge.io/ wins a disagreement, and says so.
    expect(model.warnings.map(({ annotation }) => annotation)).toEqual(['nginx.ingress.kubernetes.io/limit-rps'])
  })

  it('warns of a value it cannot read, naming the key, and never renders it; says what of haproxytech’s table size and odd periods it does not apply', () => {
    const { model, files } = fullRebuild([
      web({ 'nginx.ingress.kubernetes.io/limit-rps': '5/s', 'nginx.ingress.kubernetes.io/limit-connections': '0' }, 'bad', '/bad'),
      web({ 'hapedge.io/limit-status-code': '418', 'hapedge.io/limit-rps': '1' }, 'teapot', '/teapot'),
      web({ 'haproxy.org/rate-limit-requests': '30', 'haproxy.org/rate-limit-period': '30s', 'haproxy.org/rate-limit-size': '1m' }, 'ht', '/ht'),
      ...serviceObjects,
    ])
    const reasons = Object.fromEntries(model.warnings.map(({ annotation, reason }) => [annotation, reason]))
    expect(reasons).toEqual({
      'nginx.ingress.kubernetes.io/limit-rps': expect.stringContaining('"5/s" must be a whole number'),
      'nginx.ingress.kubernetes.io/limit-connections': expect.stringContaining('"0" must be a whole number from 1'),
      'hapedge.io/limit-status-code': expect.stringContaining(`must be one of ${REFUSAL_STATUSES.join(', ')}`),
      'haproxy.org/rate-limit-period': expect.stringContaining('held as 1 in 1s'),
      'haproxy.org/rate-limit-size': expect.stringContaining(TABLE_SIZE),
    })
    const routes = model.hosts.get(HOST)!.routes
    expect(routes.find((route) => route.path === '/bad')!.limits).toBeUndefined()
    expect(routes.find((route) => route.path === '/teapot')!.limits!.status).toBeUndefined()
    expect(files.get(FILES.limitPrefixMap)).toContain(`${HOST}/bad/ -\n`)
  })

  it('reads the settings’ statuses, refusing one HAProxy cannot answer with, by its key', () => {
    expect(readSettings({ 'limit-req-status-code': '503', 'limit-conn-status-code': '429' }).settings).toMatchObject({
      'limit-req-status-code': 503,
      'limit-conn-status-code': 429,
    })
    const { settings, issues } = readSettings({ 'limit-req-status-code': '418' })
    expect(settings['limit-req-status-code']).toBeUndefined()
    expect(issues.map(({ path }) => path)).toEqual(['data["limit-req-status-code"]'])
  })

  it('keeps each route’s limits in a map value, and refuses with one fixed rule per status, 429 when nothing says otherwise', () => {
    const value = limitValue({ id: limitId(owner('web')), windows: { '1s': 3, '1h': 7 }, connections: 2, status: 503 })
    expect(value).toBe(`${limitId(owner('web'))}|3||7|2|503`)
    const rules = limitRules((name, expr, condition) => `set ${name} ${expr} ${condition ?? ''}`, [])
    expect(rules.filter((rule) => rule.includes('deny_status'))).toHaveLength(REFUSAL_STATUSES.length)
    expect(rules.some((rule) => rule.includes(`int(${DEFAULT_REFUSAL_STATUS})`))).toBe(true)
  })

  it('applies a changed limit, a first one on a host and a changed status as map edits; a first limit-allowlist reloads, its change is an ACL edit', () => {
    const live = new LiveCluster()
    live.apply([web({}), ...serviceObjects].map(added))
    const first = live.apply([modified(web({ 'nginx.ingress.kubernetes.io/limit-rps': '5' }))]).plan
    expect(first).toMatchObject({ reload: false, maps: [{ map: FILES.limitPrefixMap, key: `${HOST}/` }] })
    const changed = live.apply([modified(web({ 'nginx.ingress.kubernetes.io/limit-rps': '50', 'hapedge.io/limit-status-code': '503' }))]).plan
    expect(changed).toMatchObject({ reload: false, maps: [{ map: FILES.limitPrefixMap, key: `${HOST}/` }] })
    const allowed = live.apply([
      modified(web({ 'nginx.ingress.kubernetes.io/limit-rps': '50', 'nginx.ingress.kubernetes.io/limit-allowlist': '10.0.0.0/8' })),
    ]).plan
    expect(allowed.reload).toBe(true)
    expect(allowed.reasons).toContain("Ingress default/web gained limit-allowlist: the frontend's rule for it changes")
    const widened = live.apply([
      modified(web({ 'nginx.ingress.kubernetes.io/limit-rps': '50', 'nginx.ingress.kubernetes.io/limit-allowlist': '10.0.0.0/8,fd00::/8' })),
    ]).plan
    expect(widened).toMatchObject({ reload: false, acls: [{ op: 'add', pattern: 'fd00::/8' }] })
  })

  it('sets the settings’ statuses in global, and nothing when they are unset', () => {
    const { files } = fullRebuild([configMap({ 'limit-req-status-code': '503' }), ...serviceObjects])
    expect(files.get(FILES.global)).toContain('set-var proc.limit_req_status int(503)')
    expect(fullRebuild(serviceObjects).files.get(FILES.global)).not.toContain('limit_')
  })
})
