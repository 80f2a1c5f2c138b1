import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { haproxyCheck } from '../support/haproxy.ts'
import { startNamedBackend, type NamedBackend } from '../support/named-backends.ts'
import { configMap, endpointSlice, ingress, service, type IngressSpec } from '../support/objects.ts'
import { readTextTree } from './read-tree.ts'
import { answeredBy, serveCluster, type ServedCluster } from './serve-cluster.ts'
import { startServices, type ServiceBackends } from './service-backends.ts'
import { quote } from '../../core/kube/fields.ts'

/**
 * Values that would inject HAProxy configuration if they reached a file: each carries a marker
 * (`INJECTED…`) so the rendered directory can be searched for it. Every such object must be
 * rejected with the field path, and the one good Ingress beside them must still be served.
 */

const DIRECTIVE = '\n    http-request return status 200 string INJECTED\nbackend INJECTED_BACKEND'

interface HostileCase {
  name: string
  field: string
  spec: Omit<IngressSpec, 'name'>
}

const rule = (host: string, path = '/', service = 'good') => ({ host, paths: [{ path, pathType: 'Prefix' as const, service }] })

const hostileIngresses: HostileCase[] = [
  { name: 'host-newline', field: 'spec.rules[0].host', spec: { rules: [rule(`evil.test${DIRECTIVE}`)] } },
  { name: 'host-space', field: 'spec.rules[0].host', spec: { rules: [rule('evil.test if TRUE INJECTED')] } },
  { name: 'host-sample-fetch', field: 'spec.rules[0].host', spec: { rules: [rule('%[env(INJECTED)].test')] } },
  { name: 'host-hash', field: 'spec.rules[0].host', spec: { rules: [rule('evil.test#INJECTED')] } },
  { name: 'host-quotes', field: 'spec.rules[0].host', spec: { rules: [rule('"evil.test" \'INJECTED\'')] } },
  { name: 'host-control', field: 'spec.rules[0].host', spec: { rules: [rule('evil\u0000INJECTED\u0007.test\r')] } },
  { name: 'host-over-long', field: 'spec.rules[0].host', spec: { rules: [rule(`${'injected'.padEnd(60, 'x')}.`.repeat(5) + 'test')] } },
  { name: 'path-newline', field: 'spec.rules[0].http.paths[0].path', spec: { rules: [rule('good.test', `/ok${DIRECTIVE}`)] } },
  { name: 'path-space', field: 'spec.rules[0].http.paths[0].path', spec: { rules: [rule('good.test', '/a b INJECTED')] } },
  { name: 'path-quotes', field: 'spec.rules[0].http.paths[0].path', spec: { rules: [rule('good.test', '/a"INJECTED\'')] } },
  { name: 'path-sample-fetch', field: 'spec.rules[0].http.paths[0].path', spec: { rules: [rule('good.test', '/%[req.hdr(INJECTED)]')] } },
  { name: 'path-hash', field: 'spec.rules[0].http.paths[0].path', spec: { rules: [rule('good.test', '/a#INJECTED')] } },
  { name: 'path-control', field: 'spec.rules[0].http.paths[0].path', spec: { rules: [rule('good.test', '/a\u0000INJECTED\u001b[2J\r')] } },
  { name: 'path-backslash', field: 'spec.rules[0].http.paths[0].path', spec: { rules: [rule('good.test', '/a\\ INJECTED')] } },
  { name: 'path-over-long', field: 'spec.rules[0].http.paths[0].path', spec: { rules: [rule('good.test', `/${'injected/'.repeat(200)}`)] } },
  { name: 'service-name', field: 'spec.rules[0].http.paths[0].backend.service.name', spec: { rules: [rule('good.test', '/svc', `good${DIRECTIVE}`)] } },
  {
    name: 'port-name',
    field: 'spec.rules[0].http.paths[0].backend.service.port',
    spec: { rules: [{ host: 'good.test', paths: [{ path: '/port', pathType: 'Prefix', service: 'good', port: `http${DIRECTIVE}` }] }] },
  },
  { name: 'default-backend', field: 'spec.defaultBackend.service.name', spec: { defaultBackend: { service: `good${DIRECTIVE}` } } },
  { name: 'tls-host', field: 'spec.tls[0].hosts[0]', spec: { rules: [rule('tls.test')], tls: [{ hosts: [`tls.test${DIRECTIVE}`], secretName: 'x' }] } },
  { name: 'tls-secret-name', field: 'spec.tls[0].secretName', spec: { rules: [rule('tls.test')], tls: [{ hosts: ['tls.test'], secretName: `x${DIRECTIVE}` }] } },
  { name: 'annotation-value', field: 'metadata.annotations["hapedge.io/ssl-redirect"]', spec: { annotations: { 'hapedge.io/ssl-redirect': `true${DIRECTIVE}` }, rules: [rule('a.test')] } },
  { name: 'annotation-unknown', field: 'metadata.annotations["hapedge.io/config-snippet"]', spec: { annotations: { 'hapedge.io/config-snippet': `http-request deny INJECTED` }, rules: [rule('b.test')] } },
  { name: 'annotation-over-long', field: 'metadata.annotations["hapedge.io/ssl-redirect"]', spec: { annotations: { 'hapedge.io/ssl-redirect': `true ${'INJECTED '.repeat(40_000)}` }, rules: [rule('c.test')] } },
  { name: 'namespace', field: 'metadata.namespace', spec: { namespace: `default${DIRECTIVE}`, rules: [rule('d.test')] } },
  { name: `name${DIRECTIVE}`, field: 'metadata.name', spec: { rules: [rule('e.test')] } },
]

/** An Ingress whose pathType is not one of the three the API defines. */
const hostilePathType = (() => {
  const object = ingress({ name: 'path-type', rules: [rule('f.test')] })
  object.spec.rules[0]!.http.paths[0]!.pathType = `Prefix${DIRECTIVE}` as 'Prefix'
  return object
})()

/** How hapedge names an object: a malformed name or namespace is shown quoted (see core/kube/objects.ts). */
const shown = (value: string) => (/^[a-z0-9.-]{1,253}$/.test(value) ? value : quote(value))
const objectOf = (entry: HostileCase) => `Ingress ${shown(entry.spec.namespace ?? 'default')}/${shown(entry.name)}`

describe('hostile input beside one good Ingress', () => {
  let services: ServiceBackends
  let victim: NamedBackend
  let cluster: ServedCluster

  beforeAll(async () => {
    services = await startServices(['good', 'odd', 'snippet'])
    victim = await startNamedBackend({ name: 'victim' })
    cluster = await serveCluster([
      ...services.objects,
      ...hostileIngresses.map((entry) => ingress({ name: entry.name, ...entry.spec })),
      hostilePathType,
      // Other kinds that feed configuration: an endpoint address, a Service port name, global settings.
      service('victim'),
      endpointSlice('victim', [{ address: `127.0.0.1${DIRECTIVE}`, ready: true }], [{ port: victim.port }]),
      service('svc-bad', [{ port: 80, name: `http${DIRECTIVE}` }]),
      configMap({ 'timeout-server': `5s${DIRECTIVE}`, balance: 'roundrobin\n    http-request deny INJECTED' }),
      // The good ones: plain, odd-but-legal path characters, and another controller's snippet (not ours to read).
      ingress({ name: 'good', rules: [{ host: 'good.test', paths: [{ path: '/', pathType: 'Prefix', service: 'good' }, { path: '/victim', pathType: 'Prefix', service: 'victim' }] }] }),
      ingress({ name: 'odd', rules: [{ host: 'odd.test', paths: [{ path: "/o&d;d=1,$!*()+:@~-._", pathType: 'Exact', service: 'odd' }] }] }),
      ingress({
        name: 'foreign-snippet',
        annotations: { 'nginx.ingress.kubernetes.io/configuration-snippet': `more_set_headers "X: INJECTED";${DIRECTIVE}` },
        rules: [{ host: 'snippet.test', paths: [{ path: '/', pathType: 'Prefix', service: 'snippet' }] }],
      }),
    ])
  })

  afterAll(async () => {
    await cluster?.stop()
    await services?.close()
    await victim?.close()
  })

  it.each(hostileIngresses)('rejects Ingress $name naming the field $field', (entry) => {
    const reasons = cluster.model.rejections.filter((candidate) => candidate.object === objectOf(entry)).map((candidate) => candidate.reason)
    expect(reasons.join('\n')).toContain(entry.field)
  })

  it('rejects an unknown pathType naming spec.rules[0].http.paths[0].pathType', () => {
    expect(cluster.model.rejections).toContainEqual({ object: 'Ingress default/path-type', reason: expect.stringContaining('spec.rules[0].http.paths[0].pathType') })
  })

  it('rejects the hostile EndpointSlice address, Service port name and ConfigMap settings with their fields', () => {
    const reasons = (object: string) => cluster.model.rejections.filter((r) => r.object === object).map((r) => r.reason).join('\n')
    expect(reasons('EndpointSlice default/victim-abcde')).toContain('endpoints[0].addresses[0]')
    expect(reasons('Service default/svc-bad')).toContain('spec.ports[0].name')
    expect(reasons('ConfigMap hapedge/hapedge')).toContain('data["timeout-server"]')
    expect(reasons('ConfigMap hapedge/hapedge')).toContain('data.balance')
  })

  it('rejects nothing else: the good Ingresses are served', () => {
    const rejected = new Set(cluster.model.rejections.map((r) => r.object))
    for (const name of ['good', 'odd', 'foreign-snippet']) expect(rejected).not.toContain(`Ingress default/${name}`)
    expect(rejected.size).toBe(hostileIngresses.length + 1 + 3)
  })

  it('keeps every rejection to one short line (hostile values are quoted and cut, never echoed raw)', () => {
    for (const { object, reason } of cluster.model.rejections) {
      expect(`${object}: ${reason}`).not.toMatch(/[\u0000-\u001f\u007f]/)
      expect(reason.length).toBeLessThan(2000)
    }
  })

  it('never writes the injected text, nor any control character but newline, to the rendered files', async () => {
    const tree = await readTextTree(cluster.dir)
    expect(tree.size).toBeGreaterThan(0)
    for (const [file, content] of tree) {
      expect(content, file).not.toMatch(/injected/i)
      expect(content, file).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f]/)
    }
  })

  it('leaves a configuration that haproxy -c accepts', async () => {
    const check = await haproxyCheck(cluster.dir)
    expect(check.ok, check.output).toBe(true)
  })

  it('serves the good Ingresses through HAProxy', async () => {
    expect(answeredBy(await cluster.get('good.test', '/'))).toBe('good')
    expect(answeredBy(await cluster.get('odd.test', "/o&d;d=1,$!*()+:@~-._"))).toBe('odd')
    expect(answeredBy(await cluster.get('odd.test', '/o&d;d=1'))).toBe('HTTP 404')
    expect(answeredBy(await cluster.get('snippet.test', '/'))).toBe('snippet')
  })

  it('uses the defaults for the rejected settings (HAProxy still answers)', async () => {
    expect(cluster.files.get('00-global.cfg')).toMatch(/timeout server 60s/)
    expect(cluster.files.get('00-global.cfg')).toMatch(/balance roundrobin\n/)
  })

  it('serves no route from a rejected Ingress', async () => {
    for (const host of ['evil.test', 'tls.test', 'a.test', 'b.test', 'c.test', 'd.test', 'e.test', 'f.test']) {
      expect(answeredBy(await cluster.get(host, '/')), host).toBe('HTTP 404')
    }
    expect(answeredBy(await cluster.get('good.test', '/svc'))).toBe('good')
  })

  it('answers 503 for the Service whose only EndpointSlice was rejected', async () => {
    expect((await cluster.get('good.test', '/victim')).status).toBe(503)
    expect(victim.requests).toBe(0)
  })
})
