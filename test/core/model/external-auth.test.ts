import { describe, expect, it } from 'vitest'
import { LiveCluster } from '../../../core/incremental/live-cluster.ts'
import { REFUSED_BACKEND } from '../../../core/model/backend-ref.ts'
import { withRedirectParam } from '../../../core/model/external-auth.ts'
import { EXTERNAL_AUTH_LUA } from '../../../core/render/external-auth-lua.ts'
import { FILES } from '../../../core/render/files.ts'
import { fullRebuild } from '../../../core/render/full-rebuild.ts'
import { EXTERNAL_AUTH_LUA_FILE } from '../../../core/render/render-external-auth.ts'
import { endpointSlice, ingress, service } from '../../support/objects.ts'

/** External authentication in the model and the maps: which routes ask, what the maps hold, what is refused, and what a change costs. */

const HOST = 'shop.example.com'
const NGINX = 'nginx.ingress.kubernetes.io/'
/** `host` null: a rule without a host. */
const web = (annotations: Record<string, string>, name = 'web', path = '/', host: string | null = HOST) =>
  ingress({ name, annotations, rules: [{ ...(host === null ? {} : { host }), paths: [{ path, pathType: 'Prefix', service: 'web' }] }] })
const serviceObjects = [service('web'), endpointSlice('web', ['10.0.0.1'])]
const added = (object: unknown) => ({ type: 'ADDED' as const, object: object as Record<string, unknown> })
const modified = (object: unknown) => ({ type: 'MODIFIED' as const, object: object as Record<string, unknown> })

describe('external authentication', () => {
  it('gives the routes of its Ingress their auth service as one map value, $host their own host, and every other route of the host none', () => {
    const { model, files } = fullRebuild([
      web({
        [`${NGINX}auth-url`]: 'https://$host/oauth2/auth',
        [`${NGINX}auth-method`]: 'POST',
        [`${NGINX}auth-signin`]: 'https://$host/oauth2/start',
        [`${NGINX}auth-response-headers`]: 'X-Auth-Request-User, X-Auth-Request-Email',
        [`${NGINX}auth-request-redirect`]: '/after',
      }),
      web({}, 'api', '/api'),
      ...serviceObjects,
    ])
    expect(model.warnings).toEqual([])
    expect(model.rejections).toEqual([])
    expect(files.get(FILES.externalAuthPrefixMap)).toBe(
      `${HOST}/ POST|https://${HOST}/oauth2/auth|https://$host/oauth2/start?rd=$scheme://$http_host$escaped_request_uri|x-auth-request-user,x-auth-request-email|/after\n` +
        `${HOST}/api/ -\n`,
    )
    expect(files.get(FILES.externalAuthExactMap)).toBe(`${HOST}/api -\n`)
  })

  it('adds the original URL to auth-signin as ingress-nginx does, unless the URL already has the parameter or it is empty', () => {
    expect(withRedirectParam('https://login.example.com/start', 'rd')).toBe('https://login.example.com/start?rd=$scheme://$http_host$escaped_request_uri')
    expect(withRedirectParam('https://login.example.com/start?x=1', 'next')).toBe(
      'https://login.example.com/start?x=1&next=$scheme://$http_host$escaped_request_uri',
    )
    expect(withRedirectParam('https://$host/oauth2/start?rd=$escaped_request_uri', 'rd')).toBe('https://$host/oauth2/start?rd=$escaped_request_uri')
    expect(withRedirectParam('https://login.example.com/start', '')).toBe('https://login.example.com/start')
    // haproxy-ingress's auth-signin is its Location as written.
    const { files } = fullRebuild([
      web({ 'haproxy-ingress.github.io/auth-url': 'http://10.0.0.9/auth', 'haproxy-ingress.github.io/auth-signin': 'https://login.example.com/' }),
      ...serviceObjects,
    ])
    expect(files.get(FILES.externalAuthPrefixMap)).toBe(`${HOST}/ GET|http://10.0.0.9/auth|https://login.example.com/|-|-\n`)
  })

  it('names the client headers the auth service is sent only when not all of them are (haproxy-ingress auth-headers-request)', () => {
    const valueFor = (headers: string) =>
      fullRebuild([
        web({ 'haproxy-ingress.github.io/auth-url': 'http://10.0.0.9/auth', 'haproxy-ingress.github.io/auth-headers-request': headers }),
        ...serviceObjects,
      ]).files.get(FILES.externalAuthPrefixMap)
    expect(valueFor('Authorization, X-Tenant')).toBe(`${HOST}/ GET|http://10.0.0.9/auth|-|-|-|authorization,x-tenant\n`)
    expect(valueFor('-')).toBe(`${HOST}/ GET|http://10.0.0.9/auth|-|-|-|-\n`)
    expect(valueFor('*')).toBe(`${HOST}/ GET|http://10.0.0.9/auth|-|-|-\n`)
  })

  it('warns of companions without auth-url, and renders nothing for them', () => {
    const { model, files } = fullRebuild([web({ [`${NGINX}auth-signin`]: 'https://login.example.com/', [`${NGINX}auth-method`]: 'POST' }), ...serviceObjects])
    expect(model.warnings.map(({ annotation, reason }) => [annotation, reason])).toEqual([
      [`${NGINX}auth-method`, 'ignored without auth-url'],
      [`${NGINX}auth-signin`, 'ignored without auth-url'],
    ])
    expect(files.get(FILES.externalAuthPrefixMap)).toBe('')
  })

  it.each([
    ['an auth-url it cannot read', { [`${NGINX}auth-url`]: 'svc://auth:8080/check' }, HOST],
    ['a method HAProxy’s HTTP client does not send', { [`${NGINX}auth-url`]: 'http://auth/check', [`${NGINX}auth-method`]: 'PATCH' }, HOST],
    ['response headers it cannot copy', { [`${NGINX}auth-url`]: 'http://auth/check', [`${NGINX}auth-response-headers`]: 'X-User-*' }, HOST],
    ['$host on a rule without a host, where the client would name the auth service', { [`${NGINX}auth-url`]: 'https://$host/auth' }, null],
    ['$host on a wildcard host', { [`${NGINX}auth-url`]: 'https://$host/auth' }, '*.example.com'],
  ])('refuses %s: its routes answer 503, never served open', (_, annotations, host) => {
    const { model, files } = fullRebuild([web(annotations, 'web', '/', host), ...serviceObjects])
    expect(model.rejections).toMatchObject([
      { object: 'Ingress default/web', reason: expect.stringMatching(/auth-(url|method|response-headers)"\]: .*its routes answer 503$/) },
    ])
    expect(files.get(FILES.prefixMap)).toBe(`${host ?? ''}/ ${REFUSED_BACKEND}\n`)
    expect(files.get(FILES.externalAuthPrefixMap)).toBe('')
  })

  it('refuses an Ingress whose catch-all (spec.defaultBackend) it would have to authenticate', () => {
    const catchAll = ingress({ name: 'web', annotations: { [`${NGINX}auth-url`]: 'http://auth/check' }, defaultBackend: { service: 'web' } })
    const { model, files } = fullRebuild([catchAll, ...serviceObjects])
    expect(model.rejections).toMatchObject([{ object: 'Ingress default/web', reason: expect.stringContaining('spec.defaultBackend') }])
    expect(files.get(FILES.defaultMap)).toBe(`default ${REFUSED_BACKEND}\n`)
  })

  it('ships its Lua in every generation, loaded by the global section, whether or not a route asks', () => {
    const { files } = fullRebuild([web({}), ...serviceObjects])
    expect(files.get(EXTERNAL_AUTH_LUA_FILE)).toBe(EXTERNAL_AUTH_LUA)
    expect(files.get(FILES.global)).toContain(`lua-load ${EXTERNAL_AUTH_LUA_FILE}\n`)
  })

  it('is asked for, changed and dropped with map edits, without a reload', () => {
    const cluster = new LiveCluster({})
    cluster.apply([...serviceObjects, web({})].map(added))
    const asked = cluster.apply([modified(web({ 'hapedge.io/auth-url': 'http://one.internal/check' }))])
    expect(asked.plan).toMatchObject({ reload: false, reasons: [] })
    expect(asked.plan.maps).toEqual([{ map: FILES.externalAuthPrefixMap, key: `${HOST}/`, value: 'GET|http://one.internal/check|-|-|-' }])
    const changed = cluster.apply([modified(web({ 'hapedge.io/auth-url': 'http://two.internal/check', 'hapedge.io/auth-method': 'HEAD' }))])
    expect(changed.plan).toMatchObject({ reload: false, reasons: [] })
    expect(changed.plan.maps).toEqual([{ map: FILES.externalAuthPrefixMap, key: `${HOST}/`, value: 'HEAD|http://two.internal/check|-|-|-' }])
    const dropped = cluster.apply([modified(web({}))])
    expect(dropped.plan).toMatchObject({ reload: false, reasons: [] })
    expect(dropped.plan.maps).toEqual([{ map: FILES.externalAuthPrefixMap, key: `${HOST}/` }])
  })
})
