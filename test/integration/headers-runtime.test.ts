import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FILES } from '../../core/render/files.ts'
import { answeredBy } from './serve-cluster.ts'
import { request } from '../support/http-client.ts'
import { ingress } from '../support/objects.ts'
import { modified, startRuntimeCluster, type RuntimeCluster } from './runtime-cluster.ts'
import { startServices, type ServiceBackends } from './service-backends.ts'

/**
 * A header's value (an annotation's or an NGINX snippet's) and a server alias, changed, are applied by the agent through the runtime API
 * (`set map`, `add map`, `del map`) as the engine plans them: no reload, the same worker, and the
 * next request carries the new value, spaces, `%`, `;` and quotes included (they travel
 * percent-encoded, so no command line splits them), or is served under the new alias.
 */

const site = (value: string, alias: string) =>
  ingress({
    name: 'site',
    annotations: {
      'hapedge.io/request-set-header': `X-Team ${value}`,
      'hapedge.io/response-set-header': `X-Served-By ${value}`,
      'nginx.ingress.kubernetes.io/server-alias': alias,
      // An NGINX snippet's header (nginx-snippet.ts) is the same map value: NGINX's double quotes escape `"` and `\`.
      'nginx.ingress.kubernetes.io/configuration-snippet': `more_set_headers "X-Snippet: ${value.replace(/["\\]/g, '\\$&')}";`,
    },
    rules: [{ host: 'site.test', paths: [{ path: '/', service: 'echo' }] }],
  })

describe('header values and server aliases change at runtime', () => {
  let services: ServiceBackends
  let cluster: RuntimeCluster

  const get = (host = 'site.test') => request(`http://127.0.0.1:${cluster.httpPort}/`, { headers: { host } })

  beforeAll(async () => {
    services = await startServices(['echo'])
    cluster = await startRuntimeCluster([...services.objects, site('first', 'old.test')], 'hapedge-headers-runtime')
  })

  afterAll(async () => {
    await cluster?.stop()
    await services?.close()
  })

  it('sends the new request and response values after a map edit, without a reload', async () => {
    const first = await get()
    expect([first.json().headers['x-team'], first.headers['x-served-by'], first.headers['x-snippet']]).toEqual(['first', 'first', 'first'])
    const before = await cluster.workers()

    const changed = 'second value; 100% "sure" %[env(HOME)]'
    const { applied } = await cluster.atRuntime([modified(site(changed, 'old.test'))])
    expect(applied.maps.map(({ name }) => name)).toEqual([FILES.headerValuesMap])
    const second = await get()
    expect([second.json().headers['x-team'], second.headers['x-served-by'], second.headers['x-snippet']]).toEqual([changed, changed, changed])
    expect(await cluster.workers()).toEqual(before)
  })

  it('serves a new alias and no longer the old one after a hosts map edit, without a reload', async () => {
    expect(answeredBy(await get('old.test'))).toBe('echo')
    const before = await cluster.workers()
    const { applied } = await cluster.atRuntime([modified(site('first', 'new.test'))])
    expect(applied.maps.map(({ name }) => name)).toContain(FILES.hostsMap)
    expect(answeredBy(await get('new.test'))).toBe('echo')
    expect(answeredBy(await get('old.test'))).toBe('HTTP 404')
    expect(await cluster.workers()).toEqual(before)
  })
})
