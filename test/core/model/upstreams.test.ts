import { describe, expect, it } from 'vitest'
import { LiveCluster } from '../../../core/incremental/live-cluster.ts'
import { readObject } from '../../../core/kube/objects.ts'
import { backendVariantName, serviceOfBackend } from '../../../core/model/backend-ref.ts'
import { fullRebuild } from '../../../core/render/full-rebuild.ts'
import { FILES } from '../../../core/render/files.ts'
import { added, modified } from '../../support/contracts/cluster-apps.ts'
import { makeCertificate } from '../../support/certificates.ts'
import { authSecret, endpointSlice, ingress, service } from '../../support/objects.ts'
import { makeTempDir, removeTempDir } from '../../support/temp-dir.ts'

/** Backend settings in the model, the files and the plan: which backends they make, what a change costs, what is warned of or refused. */

const site = (name: string, host: string, annotations: Record<string, string> = {}) =>
  ingress({ name, annotations, rules: [{ host, paths: [{ service: 'web' }] }] })
const web = [service('web'), endpointSlice('web', ['10.0.0.1'])]
const variant = (annotations: Record<string, string>) =>
  fullRebuild([...web, site('v', 'v.example.com', annotations)]).model.hosts.get('v.example.com')!.routes[0]!
const CERTIFICATE = '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n'
const verifying = {
  'nginx.ingress.kubernetes.io/backend-protocol': 'HTTPS',
  'nginx.ingress.kubernetes.io/proxy-ssl-verify': 'on',
  'nginx.ingress.kubernetes.io/proxy-ssl-secret': 'backend-ca',
}

describe('backend settings', () => {
  it('routes of an Ingress with settings go to a backend of their own, which names the Service; the Service’s own backend is unchanged', () => {
    const route = variant({ 'nginx.org/lb-method': 'least_conn' })
    expect(route.upstream).toEqual({ balance: 'leastconn' })
    expect(route.backendName).toBe(backendVariantName(route.backend, route.upstream))
    expect(route.backendName).toMatch(/^default_web_80_[0-9a-f]{12}$/)
    expect(serviceOfBackend(route.backendName)).toBe('default/web')
    const { files } = fullRebuild([...web, site('plain', 'p.example.com'), site('v', 'v.example.com', { 'nginx.org/lb-method': 'least_conn' })])
    const backends = files.get(FILES.backends)!
    expect(backends).toContain(`backend ${route.backendName}\n`)
    expect(backends).toContain('    balance leastconn\n')
    expect(backends.split('\n\n').find((section) => section.startsWith('backend default_web_80\n'))).not.toContain('balance')
  })

  it('one Ingress’s settings in several spellings read as one, and values that mean the defaults make no backend of their own', () => {
    expect(variant({ 'haproxy.org/server-ssl': 'true', 'haproxy.org/server-proto': 'h2' }).upstream).toEqual({ protocol: 'GRPCS' })
    expect(variant({ 'ingress.kubernetes.io/secure-backends': 'true' }).upstream).toEqual({ protocol: 'HTTPS' })
    expect(variant({ 'nginx.ingress.kubernetes.io/backend-protocol': 'HTTP' })).toMatchObject({ backendName: 'default_web_80' })
  })

  it('proxy-next-upstream: tries alone keep ingress-nginx’s default conditions, off retries nothing, and what HAProxy cannot retry on is warned of', () => {
    expect(variant({ 'nginx.ingress.kubernetes.io/proxy-next-upstream-tries': '3' }).upstream).toEqual({
      retry: { on: ['conn-failure', 'empty-response', 'response-timeout'], retries: 2 },
    })
    const off = variant({ 'nginx.org/proxy-next-upstream': 'off', 'nginx.org/proxy-next-upstream-tries': '4' })
    expect(off.upstream).toEqual({ retry: { on: ['none'] } })
    const { files, model } = fullRebuild([
      ...web,
      site('off', 'off.example.com', { 'nginx.org/proxy-next-upstream': 'off' }),
      site('many', 'many.example.com', { 'nginx.ingress.kubernetes.io/proxy-next-upstream': 'error http_429' }),
    ])
    const section = files
      .get(FILES.backends)!
      .split('\n\n')
      .find((text) => text.startsWith(`backend ${off.backendName}\n`))!
    expect(section).toContain('    retry-on none\n')
    expect(section).not.toContain('redispatch')
    expect(model.warnings).toContainEqual({
      object: 'Ingress default/many',
      annotation: 'nginx.ingress.kubernetes.io/proxy-next-upstream',
      reason: expect.stringContaining('"http_429": HAProxy 2.6 cannot retry on a 429'),
    })
  })

  it('per-Service annotations (grpc-services, ssl-services, sticky-cookie-services) give the named Service’s routes their settings only, and a name no path reaches is warned of', () => {
    const objects = [...web, service('api'), endpointSlice('api', ['10.0.0.2'])]
    const { model } = fullRebuild([
      ...objects,
      ingress({
        name: 'mixed',
        annotations: {
          'nginx.org/grpc-services': 'api',
          'nginx.org/ssl-services': 'api,web',
          'nginx.com/sticky-cookie-services': 'serviceName=web srv expires=2h;serviceName=gone srv',
          'nginx.org/lb-method': 'least_conn',
        },
        rules: [
          {
            host: 'm.example.com',
            paths: [
              { path: '/api', service: 'api' },
              { path: '/', service: 'web' },
            ],
          },
        ],
      }),
    ])
    const routes = model.hosts.get('m.example.com')!.routes
    expect(routes.find((route) => route.backend.service === 'api')!.upstream).toEqual({ balance: 'leastconn', protocol: 'GRPCS' })
    expect(routes.find((route) => route.backend.service === 'web')!.upstream).toEqual({
      balance: 'leastconn',
      protocol: 'HTTPS',
      cookie: { name: 'srv', maxAge: 7200 },
    })
    expect(model.warnings).toEqual([
      {
        object: 'Ingress default/mixed',
        annotation: 'nginx.com/sticky-cookie-services',
        reason: 'no path of this Ingress reaches a Service named gone; nothing to apply it to',
      },
    ])
  })

  it('a sticky cookie name HAProxy would not read as itself (a quote, a comment) is refused with a warning, never written', () => {
    const { model, files } = fullRebuild([...web, site('quoted', 'q.example.com', { 'nginx.com/sticky-cookie-services': "serviceName=web srv'id expires=1h" })])
    expect(model.hosts.get('q.example.com')!.routes[0]!.upstream).toBeUndefined()
    expect(files.get(FILES.backends)).not.toContain("srv'id")
    expect(model.warnings).toEqual([
      expect.objectContaining({ annotation: 'nginx.com/sticky-cookie-services', reason: expect.stringContaining('the cookie name must follow serviceName=') }),
    ])
  })

  it('session-cookie-conditional-samesite-none applies to a SameSite=None cookie only', () => {
    const asked = { 'nginx.ingress.kubernetes.io/affinity': 'cookie', 'nginx.ingress.kubernetes.io/session-cookie-conditional-samesite-none': 'true' }
    expect(variant({ ...asked, 'nginx.ingress.kubernetes.io/session-cookie-samesite': 'None' }).upstream?.cookie).toEqual({
      name: 'INGRESSCOOKIE',
      sameSite: 'None',
      conditionalSameSiteNone: true,
    })
    const { model } = fullRebuild([...web, site('lax', 'lax.example.com', { ...asked, 'nginx.ingress.kubernetes.io/session-cookie-samesite': 'Lax' })])
    expect(model.warnings).toEqual([
      {
        object: 'Ingress default/lax',
        annotation: 'nginx.ingress.kubernetes.io/session-cookie-conditional-samesite-none',
        reason: 'the cookie is not SameSite=None (session-cookie-samesite); ignored',
      },
    ])
  })

  it('what is not honoured as written is warned of, naming the annotation', () => {
    const { model } = fullRebuild([
      ...web,
      site('v', 'v.example.com', {
        'nginx.ingress.kubernetes.io/load-balance': 'ewma',
        'nginx.ingress.kubernetes.io/session-cookie-name': 'route',
        'nginx.ingress.kubernetes.io/proxy-ssl-verify': 'on',
        'nginx.ingress.kubernetes.io/upstream-hash-by': '$remote_addr',
        'haproxy.org/load-balance': 'leastconn',
      }),
    ])
    expect(model.warnings.map(({ annotation, reason }) => `${annotation}: ${reason}`)).toEqual([
      'haproxy.org/load-balance: upstream-hash-by takes precedence; ignored',
      expect.stringMatching(/^nginx\.ingress\.kubernetes\.io\/load-balance: .*ewma.*; ignored$/),
      'nginx.ingress.kubernetes.io/proxy-ssl-verify: the backend protocol is not HTTPS or GRPCS, so no TLS is spoken to the servers; ignored',
      'nginx.ingress.kubernetes.io/session-cookie-name: no affinity: cookie asks for a cookie; ignored',
    ])
  })

  it('verification asked for without a CA to verify with refuses the Ingress (503), never an unverified server', () => {
    const { model, files } = fullRebuild([...web, site('v', 'v.example.com', verifying)])
    expect(model.hosts.get('v.example.com')!.routes[0]).toMatchObject({ refused: true })
    expect(model.rejections).toEqual([
      {
        object: 'Ingress default/v',
        reason: expect.stringContaining('Secret default/backend-ca does not exist'),
      },
    ])
    expect([...files.keys()].filter((path) => path.startsWith('ca/'))).toEqual([])
  })

  it('an endpoint change reaches the Service’s backend and every variant of it at runtime; a changed setting is a new backend, and the plan says so', () => {
    const cluster = new LiveCluster({})
    cluster.apply([...web, site('plain', 'p.example.com'), site('v', 'v.example.com', { 'nginx.org/lb-method': 'least_conn' })].map(added))
    const leastConn = variant({ 'nginx.org/lb-method': 'least_conn' }).backendName
    const scaled = cluster.apply([modified(endpointSlice('web', ['10.0.0.1', '10.0.0.2']))])
    expect(scaled.plan).toMatchObject({ reload: false, reasons: [] })
    expect(scaled.plan.servers).toEqual([
      { op: 'set', backend: 'default_web_80', server: 's2', address: '10.0.0.2:8080', state: 'ready' },
      { op: 'set', backend: leastConn, server: 's2', address: '10.0.0.2:8080', state: 'ready' },
    ])
    const random = variant({ 'nginx.org/lb-method': 'random' }).backendName
    const changed = cluster.apply([modified(site('v', 'v.example.com', { 'nginx.org/lb-method': 'random' }))])
    expect(changed.plan).toMatchObject({ reload: true, reasons: [`backend ${random} is new`] })
    expect(cluster.files().get(FILES.backends)).not.toContain(leastConn)
  })

  it('a slot added at runtime to a backend that speaks TLS carries its server options, as its lines in the file do', () => {
    const cluster = new LiveCluster({})
    cluster.apply([...web, site('v', 'v.example.com', { 'nginx.ingress.kubernetes.io/backend-protocol': 'GRPCS' })].map(added))
    const grown = cluster.apply([modified(endpointSlice('web', ['10.0.0.1', '10.0.0.2', '10.0.0.3']))])
    expect(grown.plan.servers).toContainEqual(expect.objectContaining({ op: 'add', server: 's3', options: 'ssl verify none alpn h2' }))
    expect(cluster.files().get(FILES.backends)).toContain('    server s3 10.0.0.3:8080 ssl verify none alpn h2\n')
  })

  it('a CA Secret is read with its certificates only: a key beside them goes no further, and one without a certificate is not read', () => {
    const read = readObject(authSecret('backend-ca', { 'ca.crt': CERTIFICATE, 'tls.key': '-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n' }))
    expect(read).toMatchObject({ status: 'object', object: { data: { 'ca.crt': btoa(CERTIFICATE) } } })
    expect(Object.keys((read as { object: { data: object } }).object.data)).toEqual(['ca.crt'])
    expect(readObject(authSecret('backend-ca', { 'ca.crt': 'not a certificate' }))).toMatchObject({ status: 'skipped' })
  })

  it('a CA Secret’s bundle is written once for its backends, without the rest of the Secret; a changed bundle reloads, naming its file', async () => {
    const dir = await makeTempDir('hapedge-upstreams-unit')
    try {
      const first = await makeCertificate({ dir, hosts: ['backend.internal'], name: 'first' })
      const second = await makeCertificate({ dir, hosts: ['backend.internal'], name: 'second' })
      const ca = (pem: string) => authSecret('backend-ca', { 'ca.crt': pem, 'tls.key': first.keyPem })
      const objects = [
        ...web,
        ca(first.certPem),
        site('v', 'v.example.com', verifying),
        site('w', 'w.example.com', { ...verifying, 'hapedge.io/load-balance': 'random' }),
      ]
      const cluster = new LiveCluster({})
      cluster.apply(objects.map(added))
      const path = 'ca/default_backend-ca_ca.crt.pem'
      expect(cluster.files().get(path)).toBe(first.certPem)
      expect(cluster.files()).toEqual(fullRebuild(objects).files)
      const changed = cluster.apply([modified(ca(second.certPem))])
      expect(changed.plan).toMatchObject({ reload: true, reasons: [`the CA bundle ${path} changed (HAProxy reads CA files at a reload)`] })
      expect(cluster.files().get(path)).toBe(second.certPem)
      expect(cluster.files()).toEqual(fullRebuild([...objects.slice(0, 2), ca(second.certPem), ...objects.slice(3)]).files)
    } finally {
      await removeTempDir(dir)
    }
  })
})
