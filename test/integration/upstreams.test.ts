import * as grpc from '@grpc/grpc-js'
import { grpcCall, grpcServer } from './grpc-echo.ts'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { createServer as createHttp2Server, type Http2Server } from 'node:http2'
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https'
import type { AddressInfo } from 'node:net'
import type { TLSSocket } from 'node:tls'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { makeCertificate } from '../support/certificates.ts'
import { endpointSlice, ingress, service } from '../support/objects.ts'
import { makeTempDir, removeTempDir } from '../support/temp-dir.ts'
import { serveCluster, type ServedCluster } from './serve-cluster.ts'

/**
 * Backend settings through the real HAProxy, against loopback backends that say who they are and
 * what they were spoken to with: two HTTP/1.1 servers (balancing, affinity, service-upstream), an
 * HTTPS one (reporting the SNI it got), an h2c one, and gRPC servers in clear and over TLS.
 */

const BACKEND_NAME = 'backend.internal'
const base64 = (text: string) => Buffer.from(text).toString('base64')
const listen = <S extends Server | HttpsServer | Http2Server>(server: S, port = 0, address = '127.0.0.1') =>
  new Promise<S>((resolve) => server.listen(port, address, () => resolve(server)))
const portOf = (server: { address(): AddressInfo | string | null }) => (server.address() as AddressInfo).port

/** A server that answers `<name> <HTTP version>`, and holds `/hold` requests until told. */
function named(name: string, held: ServerResponse[]) {
  return (request: IncomingMessage, response: ServerResponse) => {
    if (request.url === '/hold') return held.push(response)
    response.setHeader('x-server', name)
    response.end(`${name} HTTP/${request.httpVersion}`)
  }
}

describe('backend settings (backend-protocol, proxy-ssl, load-balance, upstream-hash-by, affinity, service-upstream)', () => {
  let cluster: ServedCluster
  let dir: string
  const held: ServerResponse[] = []
  const servers: { close(callback?: () => void): unknown }[] = []
  const grpcServers: grpc.Server[] = []
  let sniSeen: unknown[] = []

  beforeAll(async () => {
    dir = await makeTempDir('hapedge-upstreams')
    const certificate = await makeCertificate({ dir, hosts: [BACKEND_NAME], name: 'backend' })
    const otherCa = await makeCertificate({ dir, hosts: ['other.internal'], name: 'other' })
    // Three HTTP/1.1 servers on one port: the Service's two endpoints, and its ClusterIP.
    const plainA = await listen(createServer(named('a', held)))
    const plainB = await listen(createServer(named('b', held)), portOf(plainA), '127.0.0.2')
    const plainC = await listen(createServer(named('c', held)), portOf(plainA), '127.0.0.3')
    const tls = await listen(
      createHttpsServer({ cert: certificate.certPem, key: certificate.keyPem }, (request, response) => {
        sniSeen.push((request.socket as TLSSocket).servername)
        response.end(`tls HTTP/${request.httpVersion}`)
      }),
    )
    const h2c = await listen(createHttp2Server((request, response) => response.end(`h2c HTTP/${request.httpVersion}`)))
    servers.push(plainA, plainB, plainC, tls, h2c)
    const grpcPlain = await grpcServer('grpc', grpc.ServerCredentials.createInsecure())
    const grpcTls = await grpcServer(
      'grpcs',
      grpc.ServerCredentials.createSsl(null, [{ cert_chain: Buffer.from(certificate.certPem), private_key: Buffer.from(certificate.keyPem) }]),
    )
    grpcServers.push(grpcPlain.server, grpcTls.server)

    // The pair of servers is one Service whose port is theirs (a ClusterIP forwards its port as it is, here).
    const pairPort = portOf(plainA)
    const site = (name: string, host: string, serviceName: string, annotations: Record<string, string> = {}) =>
      ingress({
        name,
        annotations,
        rules: [{ host, paths: [{ path: '/', pathType: 'Prefix', service: serviceName, port: serviceName === 'pair' ? pairPort : 80 }] }],
      })
    const loopback = (name: string, port: number) => [service(name), endpointSlice(name, ['127.0.0.1'], [{ port }])]
    const caSecret = (name: string, pem: string) => ({
      apiVersion: 'v1',
      kind: 'Secret',
      type: 'Opaque',
      metadata: { name, namespace: 'default' },
      // The key is left out of what hapedge keeps (trimmedData): only the CA certificate is read.
      data: { 'ca.crt': base64(pem), 'tls.key': base64(certificate.keyPem) },
    })
    const verified = { 'nginx.ingress.kubernetes.io/backend-protocol': 'HTTPS', 'nginx.ingress.kubernetes.io/proxy-ssl-verify': 'on' }
    const pair = { ...service('pair'), spec: { type: 'ClusterIP', clusterIP: '127.0.0.3', ports: [{ port: pairPort }] } }
    cluster = await serveCluster([
      ...loopback('tls', portOf(tls)),
      ...loopback('h2c', portOf(h2c)),
      ...loopback('grpc', grpcPlain.port),
      ...loopback('grpcs', grpcTls.port),
      pair,
      endpointSlice('pair', ['127.0.0.1', '127.0.0.2'], [{ port: pairPort }]),
      caSecret('backend-ca', certificate.certPem),
      caSecret('other-ca', otherCa.certPem),
      site('tls-default', 'tls-plain.test', 'tls'),
      site('https', 'https.test', 'tls', { 'nginx.ingress.kubernetes.io/backend-protocol': 'HTTPS' }),
      site('secure-backends', 'secure.test', 'tls', { 'ingress.kubernetes.io/secure-backends': 'true' }),
      site('verified', 'verified.test', 'tls', {
        ...verified,
        'nginx.ingress.kubernetes.io/proxy-ssl-secret': 'default/backend-ca',
        'nginx.ingress.kubernetes.io/proxy-ssl-name': BACKEND_NAME,
        'nginx.ingress.kubernetes.io/proxy-ssl-server-name': 'on',
      }),
      site('wrong-ca', 'wrong-ca.test', 'tls', {
        ...verified,
        'nginx.ingress.kubernetes.io/proxy-ssl-secret': 'default/other-ca',
        'nginx.ingress.kubernetes.io/proxy-ssl-name': BACKEND_NAME,
      }),
      site('no-ca', 'no-ca.test', 'tls', { ...verified, 'nginx.ingress.kubernetes.io/proxy-ssl-secret': 'default/missing' }),
      // NGINX snippets' proxy_ssl_verify, translated (nginx-snippet.ts): off is the default, on verifies as proxy-ssl-verify does.
      site('snippet-unverified', 'snippet-unverified.test', 'tls', {
        'nginx.ingress.kubernetes.io/backend-protocol': 'HTTPS',
        'nginx.ingress.kubernetes.io/server-snippet': 'proxy_ssl_verify off;',
      }),
      site('snippet-verified', 'snippet-verified.test', 'tls', {
        'nginx.ingress.kubernetes.io/backend-protocol': 'HTTPS',
        'nginx.ingress.kubernetes.io/proxy-ssl-secret': 'default/other-ca',
        'nginx.ingress.kubernetes.io/proxy-ssl-name': BACKEND_NAME,
        'nginx.ingress.kubernetes.io/configuration-snippet': 'proxy_ssl_verify on;',
      }),
      site('h2c', 'h2c.test', 'h2c', { 'hapedge.io/backend-protocol': 'H2C' }),
      site('grpc', 'grpc.test', 'grpc', { 'nginx.ingress.kubernetes.io/backend-protocol': 'GRPC' }),
      site('grpcs', 'grpcs.test', 'grpcs', { 'haproxy.org/server-ssl': 'true', 'haproxy.org/server-proto': 'h2' }),
      site('round-robin', 'rr.test', 'pair'),
      site('least-conn', 'leastconn.test', 'pair', { 'nginx.org/lb-method': 'least_conn' }),
      site('hash', 'hash.test', 'pair', { 'nginx.ingress.kubernetes.io/upstream-hash-by': '$http_x_user' }),
      site('hash-cookie', 'hash-cookie.test', 'pair', { 'nginx.ingress.kubernetes.io/upstream-hash-by': '$cookie_user' }),
      site('hash-source', 'hash-source.test', 'pair', { 'nginx.ingress.kubernetes.io/upstream-hash-by': '$remote_addr' }),
      site('hash-uri', 'hash-uri.test', 'pair', { 'hapedge.io/upstream-hash-by': 'uri' }),
      site('sticky', 'sticky.test', 'pair', {
        'nginx.ingress.kubernetes.io/affinity': 'cookie',
        'nginx.ingress.kubernetes.io/session-cookie-name': 'route',
        'nginx.ingress.kubernetes.io/session-cookie-max-age': '3600',
        'nginx.ingress.kubernetes.io/session-cookie-samesite': 'Lax',
        'nginx.ingress.kubernetes.io/session-cookie-secure': 'true',
        'nginx.ingress.kubernetes.io/session-cookie-partitioned': 'true',
      }),
      site('cluster-ip', 'cluster-ip.test', 'pair', { 'nginx.ingress.kubernetes.io/service-upstream': 'true' }),
      ingress({
        name: 'per-service',
        annotations: { 'nginx.org/grpc-services': 'grpc', 'nginx.org/ssl-services': 'tls' },
        rules: [
          {
            host: 'per-service.test',
            paths: [
              { path: '/hapedge.Echo', pathType: 'Prefix', service: 'grpc', port: 80 },
              { path: '/', pathType: 'Prefix', service: 'tls', port: 80 },
            ],
          },
        ],
      }),
      site('samesite', 'samesite.test', 'pair', {
        'nginx.ingress.kubernetes.io/affinity': 'cookie',
        'nginx.ingress.kubernetes.io/session-cookie-name': 'a.b',
        'nginx.ingress.kubernetes.io/session-cookie-samesite': 'None',
        'nginx.ingress.kubernetes.io/session-cookie-secure': 'true',
        'nginx.ingress.kubernetes.io/session-cookie-conditional-samesite-none': 'true',
      }),
      site('sticky-service', 'sticky-service.test', 'pair', { 'nginx.com/sticky-cookie-services': 'serviceName=pair srv_id expires=1h path=/ httponly' }),
    ])
  })

  afterAll(async () => {
    for (const response of held) response.end()
    await cluster?.stop()
    for (const server of servers) server.close()
    for (const server of grpcServers) server.forceShutdown()
    if (dir) await removeTempDir(dir)
  })

  it('backend-protocol HTTPS (and secure-backends) speaks TLS to the servers, unverified unless asked; without it HAProxy speaks clear text to a TLS port', async () => {
    expect(await cluster.get('https.test', '/')).toMatchObject({ status: 200, body: 'tls HTTP/1.1' })
    expect(await cluster.get('secure.test', '/')).toMatchObject({ status: 200, body: 'tls HTTP/1.1' })
    expect((await cluster.get('tls-plain.test', '/')).status).toBe(502)
  })

  it('proxy-ssl-verify checks the server against the CA of proxy-ssl-secret and proxy-ssl-name, sending it as SNI; another CA gets no answer; a missing CA Secret refuses the Ingress', async () => {
    sniSeen = []
    expect(await cluster.get('verified.test', '/')).toMatchObject({ status: 200, body: 'tls HTTP/1.1' })
    expect(sniSeen).toEqual([BACKEND_NAME])
    expect((await cluster.get('wrong-ca.test', '/')).status).toBe(503)
    const refused = await cluster.get('no-ca.test', '/')
    expect(refused.status).toBe(503)
    expect(cluster.model.rejections).toContainEqual({
      object: 'Ingress default/no-ca',
      reason: expect.stringContaining('Secret default/missing does not exist'),
    })
    expect([...cluster.files.keys()].filter((path) => path.startsWith('ca/'))).toEqual(['ca/default_backend-ca_ca.crt.pem', 'ca/default_other-ca_ca.crt.pem'])
    expect(cluster.files.get('ca/default_backend-ca_ca.crt.pem')).not.toContain('PRIVATE KEY')
  })

  it('an NGINX snippet’s proxy_ssl_verify is proxy-ssl-verify: off serves the unverified server, on checks it against the CA (another CA: no answer)', async () => {
    expect(await cluster.get('snippet-unverified.test', '/')).toMatchObject({ status: 200, body: 'tls HTTP/1.1' })
    expect((await cluster.get('snippet-verified.test', '/')).status).toBe(503)
  })

  it('backend-protocol H2C speaks HTTP/2 in clear text to the server', async () => {
    expect(await cluster.get('h2c.test', '/')).toMatchObject({ status: 200, body: 'h2c HTTP/2.0' })
  })

  it('a gRPC call goes through HAProxy to a GRPC backend in clear text and a GRPCS one over TLS', async () => {
    expect(await grpcCall(cluster.httpPort, 'grpc.test', 'hello')).toBe('grpc got hello')
    expect(await grpcCall(cluster.httpPort, 'grpcs.test', 'hello')).toBe('grpcs got hello')
  })

  const whoAnswers = async (host: string, count: number, headers: Record<string, string> = {}) => {
    const answers: string[] = []
    for (let i = 0; i < count; i++) answers.push(String((await cluster.get(host, '/', { headers })).headers['x-server']))
    return answers
  }

  it('load-balance least_conn sends requests past a busy server; round robin takes turns', async () => {
    expect(new Set(await whoAnswers('rr.test', 4))).toEqual(new Set(['a', 'b']))
    const hold = cluster.get('leastconn.test', '/hold')
    while (held.length === 0) await new Promise((resolve) => setTimeout(resolve, 20))
    const answers = await whoAnswers('leastconn.test', 4)
    held.shift()!.end()
    await hold
    expect(new Set(answers).size).toBe(1)
  })

  it('upstream-hash-by keeps one header value, cookie, client address or URI on one server', async () => {
    expect(new Set(await whoAnswers('hash.test', 6, { 'x-user': 'alice' })).size).toBe(1)
    expect(new Set(await whoAnswers('hash-cookie.test', 6, { cookie: 'user=alice' })).size).toBe(1)
    expect(new Set(await whoAnswers('hash-source.test', 6)).size).toBe(1)
    expect(new Set(await whoAnswers('hash-uri.test', 6)).size).toBe(1)
    expect(new Set(await whoAnswers('rr.test', 6, { 'x-user': 'alice', cookie: 'user=alice' })).size).toBe(2)
  })

  it('affinity: cookie sets the session cookie with its attributes, and keeps a client that sends it on its server', async () => {
    const first = await cluster.get('sticky.test', '/')
    const setCookie = String(first.headers['set-cookie'])
    expect(setCookie).toMatch(/^route=[^;]+; path=\/; /)
    expect(setCookie).toContain('; Max-Age=3600')
    expect(setCookie).toContain('; SameSite=Lax')
    expect(setCookie).toMatch(/; Secure/i)
    expect(setCookie).toContain('; Partitioned')
    const cookie = setCookie.split(';')[0]!
    expect(await whoAnswers('sticky.test', 4, { cookie })).toEqual(Array(4).fill(first.headers['x-server']))
    expect(new Set(await whoAnswers('sticky.test', 4)).size).toBe(2)
  })

  it('NGINX Inc.’s per-Service annotations: grpc-services and ssl-services set the protocol of the Services they name only', async () => {
    expect(await grpcCall(cluster.httpPort, 'per-service.test', 'hi')).toBe('grpc got hi')
    expect(await cluster.get('per-service.test', '/')).toMatchObject({ status: 200, body: 'tls HTTP/1.1' })
  })

  it('sticky-cookie-services sets the named Service’s cookie (httponly, expires as Max-Age) and keeps a client on its server', async () => {
    const first = await cluster.get('sticky-service.test', '/')
    const setCookie = String(first.headers['set-cookie'])
    expect(setCookie).toMatch(/^srv_id=[^;]+; path=\/; /)
    expect(setCookie).toMatch(/; HttpOnly/i)
    expect(setCookie).toContain('; Max-Age=3600')
    const cookie = setCookie.split(';')[0]!
    expect(await whoAnswers('sticky-service.test', 4, { cookie })).toEqual(Array(4).fill(first.headers['x-server']))
  })

  it('session-cookie-conditional-samesite-none leaves SameSite=None off for the browsers known to reject it, and only for them', async () => {
    const cookieFor = async (userAgent: string) =>
      String((await cluster.get('samesite.test', '/', { headers: { 'user-agent': userAgent } })).headers['set-cookie'])
    const rejecting = [
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/66.0.3359.181 Safari/537.36',
      'Mozilla/5.0 (iPhone; CPU iPhone OS 12_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/12.1.2 Mobile/15E148 Safari/604.1',
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_14_6) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/13.0 Safari/605.1.15',
      'Mozilla/5.0 (Linux; U; Android 8.0.0; en-US) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 UCBrowser/12.13.0.1207 Mobile Safari/537.36',
    ]
    const accepting = [
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36',
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_14_6) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/90.0.4430.93 Safari/537.36',
      'Mozilla/5.0 (Linux; U; Android 8.0.0; en-US) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 UCBrowser/12.13.2.1208 Mobile Safari/537.36',
    ]
    for (const userAgent of rejecting) {
      const cookie = await cookieFor(userAgent)
      expect(cookie, userAgent).toMatch(/^a\.b=[^;]+; path=\/; /)
      expect(cookie, userAgent).not.toContain('SameSite')
    }
    for (const userAgent of accepting) expect(await cookieFor(userAgent), userAgent).toContain('; SameSite=None')
  })

  it('service-upstream sends to the Service’s ClusterIP, not its endpoints', async () => {
    expect(await whoAnswers('cluster-ip.test', 3)).toEqual(['c', 'c', 'c'])
  })

  it('two Ingresses naming one Service with different settings get a backend each; the Service’s own stays as it was', () => {
    const pair = `default_pair_${portOf(servers[0] as Server)}`
    const names = [...cluster.model.backends.keys()].filter((name) => name.startsWith(pair))
    expect(names).toHaveLength(10)
    expect(names).toContain(pair)
    expect(cluster.model.warnings).toEqual([])
  })
})
