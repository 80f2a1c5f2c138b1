import { describe, expect, it } from 'vitest'
import { LiveCluster } from '../../../core/incremental/live-cluster.ts'
import { FILES } from '../../../core/render/files.ts'
import { fullRebuild } from '../../../core/render/full-rebuild.ts'
import { endpointSlice, ingress, service } from '../../support/objects.ts'

/** CORS in the model and the maps: the policy each route gets, the origins it allows, what is warned, what hostile values become, and what a change costs. */

const HOST = 'api.example.com'
const api = (annotations: Record<string, string>, name = 'api', path = '/') =>
  ingress({ name, annotations, rules: [{ host: HOST, paths: [{ path, pathType: 'Prefix', service: 'web' }] }] })
const serviceObjects = [service('web'), endpointSlice('web', ['10.0.0.1'])]
const added = (object: unknown) => ({ type: 'ADDED' as const, object: object as Record<string, unknown> })
const modified = (object: unknown) => ({ type: 'MODIFIED' as const, object: object as Record<string, unknown> })
const NGINX = 'nginx.ingress.kubernetes.io/'
/** Where the values of CORS annotations go: nothing of them reaches any other file. */
const corsMaps = (files: Map<string, string>) => [FILES.corsExactMap, FILES.corsPrefixMap, FILES.corsOriginsMap].map((path) => files.get(path)).join('')

describe('CORS', () => {
  it('enable-cors alone is ingress-nginx’s defaults with any origin, and no credentials with it', () => {
    const { files, model } = fullRebuild([api({ [`${NGINX}enable-cors`]: 'true' }), api({}, 'plain', '/plain'), ...serviceObjects])
    expect(files.get(FILES.corsPrefixMap)).toBe(
      `${HOST}/ any/GET,PUT,POST,DELETE,PATCH,OPTIONS/DNT,Keep-Alive,User-Agent,X-Requested-With,If-Modified-Since,Cache-Control,Content-Type,Range,Authorization//1728000/false/${HOST}/\n` +
        `${HOST}/plain/ off\n`,
    )
    expect(files.get(FILES.corsExactMap)).toBe(`${HOST}/plain off\n`)
    expect(files.get(FILES.corsOriginsMap)).toBe('')
    expect(model.warnings).toEqual([])
  })

  it('a list of origins is kept per route (Exact routes named apart), with every setting, in each controller’s spelling', () => {
    const { files, model } = fullRebuild([
      api({
        [`${NGINX}enable-cors`]: 'true',
        [`${NGINX}cors-allow-origin`]: 'https://app.example.com, https://*.example.org:8443',
        [`${NGINX}cors-allow-methods`]: 'get, post',
        [`${NGINX}cors-allow-headers`]: 'Content-Type, X-Token',
        [`${NGINX}cors-expose-headers`]: 'X-Total',
        [`${NGINX}cors-max-age`]: '600',
      }),
      ingress({
        name: 'exact',
        annotations: { 'haproxy-ingress.github.io/cors-enable': 'true', 'haproxy-ingress.github.io/cors-allow-origin': 'https://app.example.com' },
        rules: [{ host: HOST, paths: [{ path: '/ping', pathType: 'Exact', service: 'web' }] }],
      }),
      ...serviceObjects,
    ])
    expect(files.get(FILES.corsPrefixMap)).toBe(`${HOST}/ list/GET,POST/Content-Type,X-Token/X-Total/600/true/${HOST}/\n`)
    expect(files.get(FILES.corsExactMap)).toBe(
      `${HOST}/ping list/GET,PUT,POST,DELETE,PATCH,OPTIONS/DNT,Keep-Alive,User-Agent,X-Requested-With,If-Modified-Since,Cache-Control,Content-Type,Range,Authorization//1728000/true/${HOST}/ping^\n`,
    )
    expect(files.get(FILES.corsOriginsMap)).toBe(
      `${HOST}/ping^|https://app.example.com 1\n${HOST}/|https://*.example.org:8443 1\n${HOST}/|https://app.example.com 1\n`,
    )
    expect(model.warnings).toEqual([])
  })

  it('says what is not done as written: settings without enable-cors, a regular expression, unsafe header names, credentials with any origin', () => {
    const warned = (annotations: Record<string, string>) =>
      fullRebuild([api(annotations), ...serviceObjects]).model.warnings.map(({ annotation, reason }) => `${annotation}: ${reason}`)
    expect(warned({ [`${NGINX}cors-allow-origin`]: 'https://app.example.com' })).toEqual([
      `${NGINX}cors-allow-origin: CORS is off without enable-cors: "true"; ignored`,
    ])
    expect(warned({ 'haproxy.org/cors-enable': 'true', 'haproxy.org/cors-allow-origin': '^https://(a|b)\\.example\\.com$' })).toEqual([
      'haproxy.org/cors-allow-origin: a regular expression of origins is not honoured (list the origins, or "*"): no origin is allowed',
    ])
    expect(warned({ [`${NGINX}enable-cors`]: 'true', [`${NGINX}cors-allow-headers`]: "X-Ok, X'Odd" })).toEqual([
      `${NGINX}cors-allow-headers: header names may hold only letters, digits, "_" and "-" (as ingress-nginx accepts them); the default is used`,
    ])
    expect(warned({ [`${NGINX}enable-cors`]: 'true', [`${NGINX}cors-allow-credentials`]: 'true' })).toEqual([
      `${NGINX}cors-allow-credentials: with any origin ("*") the CORS protocol allows no credentials: Access-Control-Allow-Credentials is not sent`,
    ])
  })

  it('refuses hostile values before they become configuration: an unreadable origin list allows no origin, never any', () => {
    const hostile = {
      origin: [
        'https://app.example.com\r\nX-Evil: 1',
        'https://%[env(HOME)].example.com',
        'https://"app".example.com',
        'https://app .example.com',
        '*, https://a.com',
      ],
      methods: ['GET\r\nX-Evil: 1', 'GET %[env(HOME)]', 'GET;"x"'],
      headers: ['X-A\r\nX-Evil: 1', 'X-%[env(HOME)]', 'X "quoted"'],
    }
    for (const [setting, values] of Object.entries(hostile))
      for (const value of values) {
        const annotation = `${NGINX}cors-allow-${setting}`
        const { files, model } = fullRebuild([api({ [`${NGINX}enable-cors`]: 'true', [annotation]: value }), ...serviceObjects])
        expect(
          model.warnings.map((warning) => warning.annotation),
          value,
        ).toContain(annotation)
        if (setting === 'origin')
          expect(model.warnings.map((warning) => warning.reason)).toContain('an unreadable list of origins allows none, never any (as the default "*" would)')
        for (const piece of ['X-Evil', '%[env', '"', 'app .example', 'a.com']) expect(corsMaps(files), value).not.toContain(piece)
        if (setting === 'origin') expect(files.get(FILES.corsPrefixMap), value).toMatch(/^api\.example\.com\/ list\//)
      }
  })

  it('any change, enabling CORS included, is a runtime map edit', () => {
    const cluster = new LiveCluster({})
    cluster.apply([...serviceObjects, api({})].map(added))
    const on = { [`${NGINX}enable-cors`]: 'true', [`${NGINX}cors-allow-origin`]: 'https://a.example.com' }
    const enabled = cluster.apply([modified(api(on))])
    expect(enabled.plan).toMatchObject({ reload: false, reasons: [] })
    const changed = cluster.apply([modified(api({ ...on, [`${NGINX}cors-allow-origin`]: 'https://b.example.com', [`${NGINX}cors-max-age`]: '5' }))])
    expect(changed.plan).toMatchObject({ reload: false, reasons: [] })
    expect(changed.plan.maps).toEqual(
      expect.arrayContaining([
        { map: FILES.corsOriginsMap, key: `${HOST}/|https://a.example.com` },
        { map: FILES.corsOriginsMap, key: `${HOST}/|https://b.example.com`, value: '1' },
        { map: FILES.corsPrefixMap, key: `${HOST}/`, value: expect.stringMatching(/^list\/.*\/5\/true\//) },
      ]),
    )
    expect(cluster.apply([modified(api({}))]).plan).toMatchObject({ reload: false, reasons: [] })
  })
})
