import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fixtureCertificate } from '../support/fixtures.ts'
import { haproxyCheck } from '../support/haproxy.ts'
import { startNamedBackend, type NamedBackend } from '../support/named-backends.ts'
import { configMap, endpointSlice, ingress, service, tlsSecret, type IngressSpec } from '../support/objects.ts'
import { removeTempDir } from '../support/temp-dir.ts'
import { readTextTree } from './read-tree.ts'
import { answeredBy, renderToDir, serveCluster, type ServedCluster } from './serve-cluster.ts'
import { startServices, type ServiceBackends } from './service-backends.ts'
import { quote } from '../../core/syntax/fields.ts'

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
  { name: 'host-over-long', field: 'spec.rules[0].host', spec: { rules: [rule(`${`${'injected'.padEnd(60, 'x')}.`.repeat(5)}test`)] } },
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
  {
    name: 'tls-secret-name',
    field: 'spec.tls[0].secretName',
    spec: { rules: [rule('tls.test')], tls: [{ hosts: ['tls.test'], secretName: `x${DIRECTIVE}` }] },
  },
  {
    name: 'annotation-refused',
    field: 'metadata.annotations["nginx.ingress.kubernetes.io/whitelist-source-range"]',
    spec: { annotations: { 'nginx.ingress.kubernetes.io/whitelist-source-range': `10.0.0.0/8${DIRECTIVE}` }, rules: [rule('a.test')] },
  },
  {
    name: 'annotation-over-long',
    field: 'metadata.annotations["hapedge.io/ssl-redirect"]',
    spec: { annotations: { 'hapedge.io/ssl-redirect': `true ${'INJECTED '.repeat(40_000)}` }, rules: [rule('c.test')] },
  },
  { name: 'namespace', field: 'metadata.namespace', spec: { namespace: `default${DIRECTIVE}`, rules: [rule('d.test')] } },
  { name: `name${DIRECTIVE}`, field: 'metadata.name', spec: { rules: [rule('e.test')] } },
]

/** Annotations hapedge does not honour as written: each is a warning naming it, and the Ingress is served without it. */
const hostileAnnotations: { name: string; annotation: string; spec: { annotations: Record<string, string>; rules: ReturnType<typeof rule>[] } }[] = [
  {
    name: 'annotation-value',
    annotation: 'hapedge.io/ssl-redirect',
    spec: { annotations: { 'hapedge.io/ssl-redirect': `true${DIRECTIVE}` }, rules: [rule('b.test')] },
  },
  {
    name: 'annotation-unknown',
    annotation: 'hapedge.io/config-snippet',
    spec: { annotations: { 'hapedge.io/config-snippet': `http-request deny INJECTED` }, rules: [rule('g.test')] },
  },
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
      ...hostileAnnotations.map((entry) => ingress({ name: entry.name, ...entry.spec })),
      hostilePathType,
      // Other kinds that feed configuration: an endpoint address, a Service port name, global settings.
      service('victim'),
      endpointSlice('victim', [{ address: `127.0.0.1${DIRECTIVE}`, ready: true }], [{ port: victim.port }]),
      service('svc-bad', [{ port: 80, name: `http${DIRECTIVE}` }]),
      configMap({ 'timeout-server': `5s${DIRECTIVE}`, balance: 'roundrobin\n    http-request deny INJECTED' }),
      // The good ones: plain, odd-but-legal path characters, and another controller's snippet (not ours to read).
      ingress({
        name: 'good',
        rules: [
          {
            host: 'good.test',
            paths: [
              { path: '/', pathType: 'Prefix', service: 'good' },
              { path: '/victim', pathType: 'Prefix', service: 'victim' },
            ],
          },
        ],
      }),
      ingress({ name: 'odd', rules: [{ host: 'odd.test', paths: [{ path: '/o&d;d=1,$!*()+:@~-._', pathType: 'Exact', service: 'odd' }] }] }),
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

  it.each(hostileAnnotations)('warns of Ingress $name naming $annotation, and serves it without the value', async (entry) => {
    const warnings = cluster.model.warnings.filter((warning) => warning.object === `Ingress default/${entry.name}`)
    expect(warnings.map((warning) => warning.annotation)).toEqual([entry.annotation])
    for (const { reason } of warnings) expect(reason).not.toMatch(/[\u0000-\u001f\u007f]|INJECTED/)
    expect(answeredBy(await cluster.get(entry.spec.rules[0]!.host, '/'))).toBe('good')
  })

  it('rejects an unknown pathType naming spec.rules[0].http.paths[0].pathType', () => {
    expect(cluster.model.rejections).toContainEqual({
      object: 'Ingress default/path-type',
      reason: expect.stringContaining('spec.rules[0].http.paths[0].pathType'),
    })
  })

  it('rejects the hostile EndpointSlice address, Service port name and ConfigMap settings with their fields', () => {
    const reasons = (object: string) =>
      cluster.model.rejections
        .filter((r) => r.object === object)
        .map((r) => r.reason)
        .join('\n')
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
    expect(answeredBy(await cluster.get('odd.test', '/o&d;d=1,$!*()+:@~-._'))).toBe('odd')
    expect(answeredBy(await cluster.get('odd.test', '/o&d;d=1'))).toBe('HTTP 404')
    expect(answeredBy(await cluster.get('snippet.test', '/'))).toBe('snippet')
  })

  it('uses the defaults for the rejected settings (HAProxy still answers)', async () => {
    expect(cluster.files.get('00-global.cfg')).toMatch(/timeout server 60s/)
    expect(cluster.files.get('00-global.cfg')).toMatch(/balance roundrobin\n/)
  })

  it('serves no route from a rejected Ingress', async () => {
    for (const host of ['evil.test', 'tls.test', 'c.test', 'd.test', 'e.test', 'f.test']) {
      expect(answeredBy(await cluster.get(host, '/')), host).toBe('HTTP 404')
    }
    // The refused one's route is claimed, and answers 503: never served open.
    expect(answeredBy(await cluster.get('a.test', '/'))).toBe('HTTP 503')
    expect(answeredBy(await cluster.get('good.test', '/svc'))).toBe('good')
  })

  it('answers 503 for the Service whose only EndpointSlice was rejected', async () => {
    expect((await cluster.get('good.test', '/victim')).status).toBe(503)
    expect(victim.requests).toBe(0)
  })
})

/**
 * Each character that could end, comment out, quote or expand a line of HAProxy configuration,
 * put in turn into every field that reaches a file: the object is rejected naming that field, or,
 * where hapedge does not read the field as its own (another class, an unreferenced Secret), it is
 * left out whole; the files hold none of it and `haproxy -c` accepts them.
 */
const hostileCharacters = [
  { name: 'a newline', value: '\n    http-request deny if TRUE # injected' },
  { name: 'a carriage return', value: '\r    http-request deny # injected' },
  { name: 'quotes', value: '" "injected\'' },
  { name: '#', value: '#injected' },
  { name: 'spaces', value: ' if TRUE injected' },
  { name: '%[', value: '%[env(injected)]' },
  { name: '${', value: '${injected}' },
  { name: 'a backslash', value: '\\ injected' },
  { name: 'a unicode letter', value: 'é-injected' },
  { name: 'a unicode line separator and bidi override', value: '\u2028injected\u202e' },
]

interface HostileField {
  /** The object as a rejection names it, for a hostile value `v`. */
  object(v: string): string
  /** The field's path in that rejection. */
  field: string
  build(v: string): unknown
}

const web = (host: string, path = '/', serviceName = 'web', port: number | string = 80) => ({
  host,
  paths: [{ path, pathType: 'Prefix' as const, service: serviceName, port }],
})
const hostileFields: HostileField[] = [
  { object: () => 'Ingress default/host', field: 'spec.rules[0].host', build: (v) => ingress({ name: 'host', rules: [web(`evil${v}.test`)] }) },
  {
    object: () => 'Ingress default/path',
    field: 'spec.rules[0].http.paths[0].path',
    build: (v) => ingress({ name: 'path', rules: [web('path.test', `/p${v}`)] }),
  },
  {
    object: () => 'Ingress default/service',
    field: 'spec.rules[0].http.paths[0].backend.service.name',
    build: (v) => ingress({ name: 'service', rules: [web('service.test', '/', `web${v}`)] }),
  },
  {
    object: () => 'Ingress default/port',
    field: 'spec.rules[0].http.paths[0].backend.service.port',
    build: (v) => ingress({ name: 'port', rules: [web('port.test', '/', 'web', `http${v}`)] }),
  },
  {
    object: () => 'Ingress default/default-backend',
    field: 'spec.defaultBackend.service.name',
    build: (v) => ingress({ name: 'default-backend', defaultBackend: { service: `web${v}` } }),
  },
  {
    object: (v) => `Ingress ${shown(`ns${v}`)}/namespace`,
    field: 'metadata.namespace',
    build: (v) => ingress({ name: 'namespace', namespace: `ns${v}`, rules: [web('namespace.test')] }),
  },
  { object: (v) => `Ingress default/${shown(`name${v}`)}`, field: 'metadata.name', build: (v) => ingress({ name: `name${v}`, rules: [web('name.test')] }) },
  {
    object: () => 'Ingress default/annotation',
    field: 'metadata.annotations["nginx.ingress.kubernetes.io/whitelist-source-range"]',
    build: (v) =>
      ingress({ name: 'annotation', annotations: { 'nginx.ingress.kubernetes.io/whitelist-source-range': `10.0.0.0/8${v}` }, rules: [web('annotation.test')] }),
  },
  {
    object: () => 'Ingress default/tls-host',
    field: 'spec.tls[0].hosts[0]',
    build: (v) => ingress({ name: 'tls-host', rules: [web('tls-host.test')], tls: [{ hosts: [`tls-host${v}.test`], secretName: 'shop' }] }),
  },
  {
    object: () => 'Ingress default/tls-secret',
    field: 'spec.tls[0].secretName',
    build: (v) => ingress({ name: 'tls-secret', rules: [web('tls-secret.test')], tls: [{ hosts: ['tls-secret.test'], secretName: `shop${v}` }] }),
  },
  { object: (v) => `Service default/${shown(`web${v}`)}`, field: 'metadata.name', build: (v) => service(`web${v}`) },
  { object: (v) => `Service ${shown(`ns${v}`)}/web`, field: 'metadata.namespace', build: (v) => service('web', [{ port: 80 }], `ns${v}`) },
  { object: () => 'Service default/named-port', field: 'spec.ports[0].name', build: (v) => service('named-port', [{ port: 80, name: `http${v}` }]) },
  {
    object: () => 'EndpointSlice default/web-hostile',
    field: 'endpoints[0].addresses[0]',
    build: (v) => endpointSlice('web', [`10.0.0.2${v}`], [{ port: 8080 }], { name: 'web-hostile' }),
  },
]

/** Every ConfigMap setting, each given the hostile value after a valid one. */
const settings: Record<string, string> = {
  'ssl-redirect': 'true',
  'timeout-connect': '5s',
  'timeout-client': '50s',
  'timeout-server': '50s',
  'timeout-http-request': '10s',
  balance: 'leastconn',
}
const settingPath = (key: string) => (/^\w+$/.test(key) ? `data.${key}` : `data[${JSON.stringify(key)}]`)

/** Fields hapedge does not read as its own: the object is neither served nor reported. */
const inertObjects = (v: string) => [
  ingress({ name: 'other-class', className: `hapedge${v}`, rules: [web('other-class.test')] }),
  tlsSecret(`unused${v}`, fixtureCertificate('shop.example.com').certPem, fixtureCertificate('shop.example.com').keyPem),
]

describe.each(hostileCharacters)('$name in every field that reaches a file', ({ value }) => {
  let rendered: Awaited<ReturnType<typeof renderToDir>>

  beforeAll(async () => {
    const shop = fixtureCertificate('shop.example.com')
    rendered = await renderToDir(
      [
        service('web'),
        endpointSlice('web', ['127.0.0.1'], [{ port: 8080 }]),
        tlsSecret('shop', shop.certPem, shop.keyPem),
        ingress({ name: 'good', rules: [web('shop.example.com')], tls: [{ hosts: ['shop.example.com'], secretName: 'shop' }] }),
        ...hostileFields.map((entry) => entry.build(value)),
        ...inertObjects(value),
        configMap(Object.fromEntries(Object.entries(settings).map(([key, valid]) => [key, `${valid}${value}`]))),
      ],
      { httpBind: '127.0.0.1:8080', httpsBind: '127.0.0.1:8443' },
    )
  })

  afterAll(async () => {
    if (rendered) await removeTempDir(rendered.dir)
  })

  const reasonsFor = (object: string) => rendered.model.rejections.filter((rejection) => rejection.object === object).map((rejection) => rejection.reason)

  it.each(hostileFields.map((entry) => ({ ...entry, name: entry.object(value) })))('rejects $name naming $field', (entry) => {
    expect(reasonsFor(entry.object(value)).join('\n')).toContain(entry.field)
  })

  it('rejects each ConfigMap setting naming its key, and uses its default', () => {
    const reasons = reasonsFor('ConfigMap hapedge/hapedge').join('\n')
    for (const key of Object.keys(settings)) expect(reasons).toContain(settingPath(key))
    expect(rendered.files.get('00-global.cfg')).toMatch(/balance roundrobin\n/)
  })

  it('rejects nothing else, and leaves another class’s Ingress and an unreferenced Secret out without a report', () => {
    const expected = new Set([...hostileFields.map((entry) => entry.object(value)), 'ConfigMap hapedge/hapedge'])
    expect(new Set(rendered.model.rejections.map((rejection) => rejection.object))).toEqual(expected)
  })

  it('writes none of it to the files, which still serve the good Ingress and pass haproxy -c', async () => {
    for (const [file, content] of rendered.files) {
      expect(content, file).not.toMatch(/injected|other-class\.test/i)
      expect(content, file).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e]/)
    }
    expect([...rendered.files.values()].join('\n')).toContain('shop.example.com')
    const check = await haproxyCheck(rendered.dir)
    expect(check.ok, check.output).toBe(true)
  })
})
