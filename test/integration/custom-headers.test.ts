import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FILES } from '../../core/render/files.ts'
import { request } from '../support/http-client.ts'
import { configMap, ingress } from '../support/objects.ts'
import { modified, startRuntimeCluster, type RuntimeCluster } from './runtime-cluster.ts'
import { startServices, type ServiceBackends } from './service-backends.ts'

/**
 * custom-headers through the real HAProxy: the entries of the ConfigMap an Ingress names are set
 * on its responses (ingress-nginx's more_set_headers), replacing what the Service sent; a value
 * changed in the ConfigMap is applied by the agent as a map edit, without a reload; another
 * namespace's ConfigMap is not read, so its headers never appear.
 */

const headers = (data: Record<string, string>, namespace = 'default') => configMap(data, 'security-headers', namespace)
const site = (name: string, host: string, customHeaders: string) =>
  ingress({
    name,
    annotations: { 'nginx.ingress.kubernetes.io/custom-headers': customHeaders },
    rules: [{ host, paths: [{ path: '/', service: 'echo' }] }],
  })

describe('custom-headers through HAProxy', () => {
  let services: ServiceBackends
  let cluster: RuntimeCluster

  const get = (host: string) => request(`http://127.0.0.1:${cluster.httpPort}/`, { headers: { host } })

  beforeAll(async () => {
    services = await startServices(['echo'])
    cluster = await startRuntimeCluster(
      [
        ...services.objects,
        site('site', 'site.test', 'security-headers'),
        site('stranger', 'stranger.test', 'tenant-b/security-headers'),
        headers({ 'X-Frame-Options': 'DENY', 'Content-Security-Policy': "default-src 'self'" }),
        headers({ 'X-Frame-Options': 'ALLOW-FROM evil.test' }, 'tenant-b'),
      ],
      'hapedge-custom-headers',
    )
  })

  afterAll(async () => {
    await cluster?.stop()
    await services?.close()
  })

  it('sets each entry of the ConfigMap on the responses of the Ingress naming it, and none of another namespace’s ConfigMap', async () => {
    const answer = await get('site.test')
    expect(answer.status).toBe(200)
    expect([answer.headers['x-frame-options'], answer.headers['content-security-policy']]).toEqual(['DENY', "default-src 'self'"])
    const stranger = await get('stranger.test')
    expect(stranger.status).toBe(200)
    expect(stranger.headers['x-frame-options']).toBeUndefined()
  })

  it('applies a value changed in the ConfigMap as a map edit, without a reload', async () => {
    const before = await cluster.workers()
    const changed = 'frame-ancestors https://a.test; report-uri "/r?x=100%"'
    const { applied } = await cluster.atRuntime([modified(headers({ 'X-Frame-Options': 'SAMEORIGIN', 'Content-Security-Policy': changed }))])
    expect(applied.maps.map(({ name }) => name)).toEqual([FILES.headerValuesMap])
    const answer = await get('site.test')
    expect([answer.headers['x-frame-options'], answer.headers['content-security-policy']]).toEqual(['SAMEORIGIN', changed])
    expect(await cluster.workers()).toEqual(before)
  })
})
