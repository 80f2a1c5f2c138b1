import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { makeCertificate } from '../support/certificates.ts'
import type { RequestOptions } from '../support/http-client.ts'
import { authSecret, ingress, tlsSecret } from '../support/objects.ts'
import { makeTempDir, removeTempDir } from '../support/temp-dir.ts'
import { makeAuthority } from './client-certificates.ts'
import { answeredBy, serveCluster, type ServedCluster } from './serve-cluster.ts'
import { startServices, type ServiceBackends } from './service-backends.ts'

/**
 * auth-tls-verify-depth through the real HAProxy, with openssl-made chains: root → issuing CA →
 * client, and root → issuing CA → team CA → client. OpenSSL (and so nginx) counts the depth in
 * intermediates, ingress-nginx's default is 1 and reads 0 as 1: the first chain passes by
 * default, the second needs depth 2. A chain through an intermediate the bundle lacks is refused.
 */

const NGINX = 'nginx.ingress.kubernetes.io/'
const HOSTS = ['default.test', 'deep.test', 'own.test', 'rootonly.test'] as const

type Client = { certPem: string; keyPem: string }

describe('auth-tls-verify-depth', () => {
  let dir: string
  let services: ServiceBackends
  let cluster: ServedCluster
  /** Issued by the root itself, by the issuing CA (one intermediate), by the team CA (two). */
  let direct: Client
  let once: Client
  let twice: Client
  let issuingChain: string
  let teamChain: string

  const site = (name: string, annotations: Record<string, string>) =>
    ingress({
      name,
      annotations,
      rules: [{ host: `${name}.test`, paths: [{ path: '/', pathType: 'Prefix', service: name }] }],
      tls: [{ hosts: [`${name}.test`], secretName: `${name}-tls` }],
    })
  const sending = (client: Client, chain = ''): RequestOptions => ({ cert: `${client.certPem}${chain}`, key: client.keyPem })

  beforeAll(async () => {
    dir = await makeTempDir('hapedge-client-cert-depth')
    const root = await makeAuthority(dir, 'root', '/C=FR/O=Hapedge Test/CN=Root CA')
    // Subjects of several attributes, spaces included: their names must be written as HAProxy's ssl_c_i_dn gives them.
    const issuing = await root.intermediate('issuing', '/C=FR/O=Hapedge Test/OU=Clients/CN=Issuing CA/emailAddress=ca@example.test')
    const team = await issuing.intermediate('team', '/DC=test/DC=example/O=Hapedge Test/CN=Team CA')
    ;[direct, once, twice] = await Promise.all([root.issue('direct'), issuing.issue('once'), team.issue('twice')])
    issuingChain = issuing.chainPem
    teamChain = team.chainPem
    const certs = await Promise.all(HOSTS.map((host) => makeCertificate({ dir, hosts: [host], name: host.split('.')[0]! })))
    services = await startServices(HOSTS.map((host) => host.split('.')[0]!))
    const bundle = `${root.certPem}${issuing.certPem}${team.certPem}`
    cluster = await serveCluster([
      ...services.objects,
      ...HOSTS.map((host, i) => tlsSecret(`${host.split('.')[0]}-tls`, certs[i]!.certPem, certs[i]!.keyPem)),
      authSecret('chain-ca', { 'ca.crt': bundle }),
      authSecret('root-ca', { 'ca.crt': root.certPem }),
      site('default', { [`${NGINX}auth-tls-secret`]: 'chain-ca' }),
      site('deep', { [`${NGINX}auth-tls-secret`]: 'chain-ca', [`${NGINX}auth-tls-verify-depth`]: '2' }),
      site('own', { 'hapedge.io/auth-tls-secret': 'chain-ca', 'hapedge.io/auth-tls-verify-depth': '2' }),
      site('rootonly', { [`${NGINX}auth-tls-secret`]: 'root-ca', [`${NGINX}auth-tls-verify-depth`]: '2' }),
    ])
  })

  afterAll(async () => {
    await cluster?.stop()
    await services?.close()
    if (dir) await removeTempDir(dir)
  })

  it('unset (ingress-nginx’s 1): serves a client certificate issued by the root or by one intermediate, and refuses one two intermediates below (495)', async () => {
    expect(answeredBy(await cluster.https('default.test', '/', 'default.test', sending(direct)))).toBe('default')
    expect(answeredBy(await cluster.https('default.test', '/', 'default.test', sending(once)))).toBe('default')
    const before = services.backend('default').requests
    for (const chain of ['', teamChain]) {
      const refused = await cluster.https('default.test', '/', 'default.test', sending(twice, chain))
      expect(refused.status).toBe(495)
      expect(refused.body).toMatch(/auth-tls-verify-depth/)
    }
    expect(services.backend('default').requests).toBe(before)
  })

  it.each([
    ['ingress-nginx', 'deep'],
    ['hapedge.io', 'own'],
  ])('2 (%s spelling): serves a client certificate two intermediates below the root', async (_, name) => {
    for (const client of [direct, once, twice]) expect(answeredBy(await cluster.https(`${name}.test`, '/', `${name}.test`, sending(client)))).toBe(name)
  })

  it('refuses a chain through an intermediate the bundle lacks, even within the depth, and serves one the bundle holds', async () => {
    expect(answeredBy(await cluster.https('rootonly.test', '/', 'rootonly.test', sending(direct)))).toBe('rootonly')
    const refused = await cluster.https('rootonly.test', '/', 'rootonly.test', sending(once, issuingChain))
    expect(refused.status).toBe(495)
    expect(refused.body).toMatch(/the bundle must hold them/)
    expect(services.backend('rootonly').requests).toBe(1)
  })
})
