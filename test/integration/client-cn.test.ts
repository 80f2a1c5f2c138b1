import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FILES } from '../../core/render/files.ts'
import { REFUSED_HEADER } from '../../core/render/render-frontend.ts'
import { makeCertificate } from '../support/certificates.ts'
import type { RequestOptions } from '../support/http-client.ts'
import { authSecret, ingress, tlsSecret } from '../support/objects.ts'
import { makeTempDir, removeTempDir } from '../support/temp-dir.ts'
import { makeAuthority } from './client-certificates.ts'
import { answeredBy, serveCluster, type ServedCluster } from './serve-cluster.ts'
import { startServices, type ServiceBackends } from './service-backends.ts'

/**
 * auth-tls-match-cn through the real HAProxy, with openssl-made client certificates of the host's
 * CA: the subject DN, as NGINX's $ssl_client_s_dn gives it (RFC 2253: `O=Example,CN=alice` for
 * openssl's `/CN=alice/O=Example`), searched for the expression; 403 when it does not hold it, or
 * when no certificate is sent to a host that only asks for one; a value outside the safe subset,
 * or one without client certificates, refuses the Ingress (503), never serves it open.
 */

const NGINX = 'nginx.ingress.kubernetes.io/'
const HOSTS = ['cn.test', 'dn.test', 'unsafe.test', 'nocert.test'] as const
type Client = { certPem: string; keyPem: string }

describe('auth-tls-match-cn', () => {
  let dir: string
  let services: ServiceBackends
  let cluster: ServedCluster
  let alice: Client
  let bob: Client
  let carol: Client

  const site = (name: string, host: string, annotations: Record<string, string>) =>
    ingress({
      name,
      annotations,
      rules: [{ host, paths: [{ path: '/', pathType: 'Prefix', service: name }] }],
      tls: [{ hosts: [host], secretName: `${name}-tls` }],
    })
  const as = (client?: Client): RequestOptions => (client ? { cert: client.certPem, key: client.keyPem } : {})
  const status = async (host: string, client?: Client) => (await cluster.https(host, '/', host, as(client))).status

  beforeAll(async () => {
    dir = await makeTempDir('hapedge-client-cn')
    const authority = await makeAuthority(dir, 'clients')
    // openssl's -subj: the issued subject is CN=…, O=Example, which RFC 2253 writes last RDN first.
    ;[alice, bob, carol] = await Promise.all([authority.issue('alice', '/O=Example'), authority.issue('bob'), authority.issue('carol', '/O=Example')])
    const certs = await Promise.all(HOSTS.map((host) => makeCertificate({ dir, hosts: [host], name: host.split('.')[0]! })))
    services = await startServices(HOSTS.map((host) => host.split('.')[0]!))
    cluster = await serveCluster([
      ...services.objects,
      ...HOSTS.map((host, i) => tlsSecret(`${host.split('.')[0]}-tls`, certs[i]!.certPem, certs[i]!.keyPem)),
      authSecret('client-ca', { 'ca.crt': authority.certPem }),
      site('cn', 'cn.test', { [`${NGINX}auth-tls-secret`]: 'default/client-ca', [`${NGINX}auth-tls-match-cn`]: 'CN=(alice|bob)' }),
      site('dn', 'dn.test', {
        'hapedge.io/auth-tls-secret': 'client-ca',
        'hapedge.io/auth-tls-verify-client': 'optional',
        'hapedge.io/auth-tls-match-cn': '^O=Example,CN=alice$',
      }),
      site('unsafe', 'unsafe.test', { [`${NGINX}auth-tls-secret`]: 'client-ca', [`${NGINX}auth-tls-match-cn`]: 'CN=(a+)+' }),
      site('nocert', 'nocert.test', { [`${NGINX}auth-tls-match-cn`]: 'CN=alice' }),
    ])
  })

  afterAll(async () => {
    await cluster?.stop()
    await services?.close()
    if (dir) await removeTempDir(dir)
  })

  it('serves a client whose subject holds the expression, and answers 403 to one whose subject does not, as ingress-nginx does', async () => {
    expect(answeredBy(await cluster.https('cn.test', '/', 'cn.test', as(alice)))).toBe('cn')
    expect(answeredBy(await cluster.https('cn.test', '/', 'cn.test', as(bob)))).toBe('cn')
    const refused = await cluster.https('cn.test', '/', 'cn.test', as(carol))
    expect(refused.status).toBe(403)
    expect(refused.body).toContain('client certificate unauthorized')
    expect(await status('cn.test')).toBe(496)
  })

  it('matches the subject as RFC 2253 writes it, anchored where the expression says, and refuses no certificate on an optional host', async () => {
    expect(answeredBy(await cluster.https('dn.test', '/', 'dn.test', as(alice)))).toBe('dn')
    expect(await status('dn.test', carol)).toBe(403)
    expect(await status('dn.test', bob)).toBe(403)
    expect(await status('dn.test')).toBe(403)
  })

  it('refuses an expression outside the safe subset, and a subject to match without client certificates: 503, never open', async () => {
    for (const host of ['unsafe.test', 'nocert.test']) {
      const response = await cluster.https(host, '/', host, as(alice))
      expect(response.status).toBe(503)
      expect(response.headers[REFUSED_HEADER.toLowerCase()]).toBeDefined()
    }
    const reasons = cluster.model.rejections.map(({ object, reason }) => `${object}: ${reason}`)
    expect(reasons).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/Ingress default\/unsafe: .*auth-tls-match-cn.*catastrophic backtracking/),
        expect.stringMatching(/Ingress default\/nocert: client certificates: auth-tls-match-cn asks for a subject, but no client certificate is asked for/),
      ]),
    )
  })

  it('keeps the expressions in a map, never in the configuration', () => {
    expect(cluster.files.get(FILES.clientCnMap)).toContain('^cn\\.test(?#0)/.*(?:CN=(alice|bob)) match')
    const configuration = [...cluster.files]
      .filter(([path]) => path.endsWith('.cfg'))
      .map(([, text]) => text)
      .join('')
    expect(configuration).not.toContain('alice')
  })
})
