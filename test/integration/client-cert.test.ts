import { X509Certificate } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { REFUSED_HEADER } from '../../core/render/render-frontend.ts'
import { makeCertificate } from '../support/certificates.ts'
import type { RequestOptions } from '../support/http-client.ts'
import { authSecret, ingress, tlsSecret } from '../support/objects.ts'
import { makeTempDir, removeTempDir } from '../support/temp-dir.ts'
import { type Authority, makeAuthority } from './client-certificates.ts'
import { answeredBy, serveCluster, type ServedCluster } from './serve-cluster.ts'
import { startServices, type ServiceBackends } from './service-backends.ts'

/**
 * Client certificates (mTLS) per host, through the real HAProxy: a certificate of the host's CA is
 * accepted, one of another CA and none are refused (495, 496) or redirected to the error page, a
 * connection made for another name never reaches the host (421), and what cannot be honoured
 * answers 503.
 */

const NGINX = 'nginx.ingress.kubernetes.io/'
const HAPROXY_INGRESS = 'haproxy-ingress.github.io/'
const HOSTS = ['mtls.test', 'optional.test', 'error.test', 'open.test', 'broken.test', 'bad.test'] as const

describe('client certificates', () => {
  let dir: string
  let services: ServiceBackends
  let cluster: ServedCluster
  let trusted: { certPem: string; keyPem: string }
  let stranger: { certPem: string; keyPem: string }

  const site = (name: string, host: string, annotations: Record<string, string>, secretName = `${name}-tls`) =>
    ingress({ name, annotations, rules: [{ host, paths: [{ path: '/', pathType: 'Prefix', service: name }] }], tls: [{ hosts: [host], secretName }] })
  const withCert = (client: { certPem: string; keyPem: string } | undefined, init: RequestOptions = {}): RequestOptions =>
    client ? { ...init, cert: client.certPem, key: client.keyPem } : init

  beforeAll(async () => {
    dir = await makeTempDir('hapedge-client-cert')
    const [ours, theirs]: Authority[] = await Promise.all([makeAuthority(dir, 'clients'), makeAuthority(dir, 'strangers')])
    ;[trusted, stranger] = await Promise.all([ours!.issue('alice'), theirs!.issue('mallory')])
    const certs = await Promise.all(HOSTS.map((host) => makeCertificate({ dir, hosts: [host], name: host.split('.')[0]! })))
    const multi = await makeCertificate({ dir, hosts: ['a.multi.test', 'b.multi.test'], name: 'multi' })
    services = await startServices(['mtls', 'optional', 'error', 'open', 'broken', 'bad', 'multi-a', 'multi-b'])
    cluster = await serveCluster([
      ...services.objects,
      ...HOSTS.map((host, i) => tlsSecret(`${host.split('.')[0]}-tls`, certs[i]!.certPem, certs[i]!.keyPem)),
      tlsSecret('multi-tls', multi.certPem, multi.keyPem),
      authSecret('client-ca', { 'ca.crt': ours!.certPem }),
      authSecret('no-ca', { 'tls.crt': ours!.certPem }),
      site('mtls', 'mtls.test', { [`${NGINX}auth-tls-secret`]: 'default/client-ca', [`${NGINX}auth-tls-pass-certificate-to-upstream`]: 'true' }),
      site('optional', 'optional.test', { 'hapedge.io/auth-tls-secret': 'client-ca', 'hapedge.io/auth-tls-verify-client': 'optional' }),
      site('error', 'error.test', {
        [`${HAPROXY_INGRESS}auth-tls-secret`]: 'client-ca',
        [`${HAPROXY_INGRESS}auth-tls-error-page`]: 'https://errors.example/cert?from=error',
      }),
      site('open', 'open.test', {}),
      site('broken', 'broken.test', { [`${NGINX}auth-tls-secret`]: 'no-ca' }),
      site('bad', 'bad.test', { [`${NGINX}auth-tls-secret`]: 'client-ca', [`${NGINX}auth-tls-verify-client`]: 'sometimes' }),
      // One certificate for two hosts, one of which asks for client certificates: two crt-list lines.
      site('multi-a', 'a.multi.test', { [`${NGINX}auth-tls-secret`]: 'client-ca' }, 'multi-tls'),
      site('multi-b', 'b.multi.test', {}, 'multi-tls'),
    ])
  })

  afterAll(async () => {
    await cluster?.stop()
    await services?.close()
    if (dir) await removeTempDir(dir)
  })

  describe('required (auth-tls-verify-client on, the default)', () => {
    it('serves a client whose certificate the host’s CA issued, and passes it in ssl-client-cert (URL-encoded PEM)', async () => {
      const response = await cluster.https('mtls.test', '/', 'mtls.test', withCert(trusted))
      expect(answeredBy(response)).toBe('mtls')
      const passed = decodeURIComponent(response.json().headers['ssl-client-cert'])
      expect(new X509Certificate(passed).fingerprint256).toBe(new X509Certificate(trusted.certPem).fingerprint256)
    })

    it('answers 495 to a certificate of another CA, and 496 to none, never reaching the Service', async () => {
      const before = services.backend('mtls').requests
      expect((await cluster.https('mtls.test', '/', 'mtls.test', withCert(stranger))).status).toBe(495)
      expect((await cluster.https('mtls.test', '/', 'mtls.test')).status).toBe(496)
      expect(services.backend('mtls').requests).toBe(before)
    })

    it('answers 421 to a request for it on a connection made for another host (SNI), with or without a certificate', async () => {
      const before = services.backend('mtls').requests
      for (const client of [undefined, trusted, stranger]) {
        const response = await cluster.https('mtls.test', '/', 'open.test', withCert(client))
        expect(response.status, client?.certPem.slice(0, 40)).toBe(421)
      }
      expect(services.backend('mtls').requests).toBe(before)
    })

    it('never passes on a client’s own ssl-client-cert header', async () => {
      const response = await cluster.https('optional.test', '/', 'optional.test', { headers: { 'ssl-client-cert': 'forged' } })
      expect(answeredBy(response)).toBe('optional')
      expect(response.json().headers['ssl-client-cert']).toBeUndefined()
    })
  })

  describe('optional', () => {
    it('serves a client without a certificate, or with one of the CA, and refuses one of another CA (495)', async () => {
      expect(answeredBy(await cluster.https('optional.test', '/'))).toBe('optional')
      expect(answeredBy(await cluster.https('optional.test', '/', 'optional.test', withCert(trusted)))).toBe('optional')
      expect((await cluster.https('optional.test', '/', 'optional.test', withCert(stranger))).status).toBe(495)
    })
  })

  describe('auth-tls-error-page', () => {
    it('redirects a client without a valid certificate to it (302)', async () => {
      for (const client of [undefined, stranger]) {
        const response = await cluster.https('error.test', '/x', 'error.test', withCert(client))
        expect(response.status).toBe(302)
        expect(response.headers.location).toBe('https://errors.example/cert?from=error')
      }
      expect(answeredBy(await cluster.https('error.test', '/x', 'error.test', withCert(trusted)))).toBe('error')
    })
  })

  describe('one certificate for a host with client certificates and one without', () => {
    it('asks for them on the first only', async () => {
      expect(answeredBy(await cluster.https('b.multi.test', '/'))).toBe('multi-b')
      expect((await cluster.https('a.multi.test', '/')).status).toBe(496)
      expect(answeredBy(await cluster.https('a.multi.test', '/', 'a.multi.test', withCert(trusted)))).toBe('multi-a')
    })

    it('serves a host without them as before', async () => {
      expect(answeredBy(await cluster.https('open.test', '/', 'open.test', withCert(stranger)))).toBe('open')
    })
  })

  describe.each([
    ['a CA Secret without ca.crt', 'broken', /Secret default\/no-ca holds no "ca\.crt"/],
    ['an auth-tls-verify-client value it cannot read', 'bad', /auth-tls-verify-client.*"sometimes"/],
  ])('an Ingress naming %s', (_, name, reason) => {
    it('is refused, naming the cause, and its routes answer 503 with the reason header', async () => {
      expect(cluster.model.rejections).toContainEqual({ object: `Ingress default/${name}`, reason: expect.stringMatching(reason) })
      const response = await cluster.https(`${name}.test`, '/', `${name}.test`, withCert(trusted))
      expect(response.status).toBe(503)
      expect(response.headers[REFUSED_HEADER.toLowerCase()]).toBeDefined()
      expect(services.backend(name).requests).toBe(0)
    })
  })
})
