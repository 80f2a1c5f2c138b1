import { randomInt } from 'node:crypto'
import { connect } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { makeCertificate } from '../support/certificates.ts'
import { freePort } from '../support/free-port.ts'
import { startHaproxy, type RunningHaproxy } from '../support/haproxy.ts'
import { ingress, service, tlsSecret } from '../support/objects.ts'
import { makeTempDir, removeTempDir } from '../support/temp-dir.ts'
import { renderToDir } from './serve-cluster.ts'

/**
 * Plain HTTP to a TLS host answers 308 to the same host, path and query on HTTPS, whatever the
 * request line's form: origin-form (`GET /x`) as browsers send it, or absolute-form
 * (`GET http://host/x`) as proxies and some clients do, which node:http cannot send.
 */

/** One request whose line and Host header go out byte for byte; answers the status and Location. */
function rawGet(port: number, target: string, host: string): Promise<{ status: number; location: string | undefined }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1')
    let answer = ''
    socket.setEncoding('latin1')
    socket.on('data', (chunk: string) => (answer += chunk))
    socket.on('error', reject)
    socket.on('close', () => {
      const head = answer.slice(0, answer.indexOf('\r\n\r\n'))
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]), location: /\r\nlocation: ([^\r]*)/i.exec(head)?.[1] })
    })
    socket.end(`GET ${target} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`)
  })
}

const HOST = 'shop.test'

/** Request lines for `/cart?id=7` and `/cart`, each with the path and query the redirect must keep. */
const requests = (httpPort: number): [form: string, target: string, host: string, kept: string][] => [
  ['origin-form', '/cart?id=7', HOST, '/cart?id=7'],
  ['origin-form, Host with the HTTP port', '/cart?id=7', `${HOST}:${httpPort}`, '/cart?id=7'],
  ['origin-form without query', '/cart', HOST, '/cart'],
  ['absolute-form', `http://${HOST}/cart?id=7`, HOST, '/cart?id=7'],
  ['absolute-form with the HTTP port', `http://${HOST}:${httpPort}/cart?id=7`, `${HOST}:${httpPort}`, '/cart?id=7'],
  ['absolute-form without query', `http://${HOST}/cart`, HOST, '/cart'],
  ['absolute-form with an encoded slash', `http://${HOST}/a%2Fb?x=%2F`, HOST, '/a%2Fb?x=%2F'],
]

describe.each([
  // Any address in 127/8 is loopback: a random one keeps port 443 free of other suites' listeners (binding it takes root, as CI runs).
  ['a port other than 443', async () => `127.0.0.1:${await freePort()}`, (port: string) => `https://${HOST}:${port}`],
  ['port 443', async () => `127.${randomInt(1, 255)}.${randomInt(1, 255)}.${randomInt(1, 255)}:443`, () => `https://${HOST}`],
])('the redirect to HTTPS on %s', (_, httpsBindOn, origin) => {
  let certDir: string
  let dir: string | undefined
  let haproxy: RunningHaproxy | undefined
  let httpPort: number
  let httpsOrigin: string

  beforeAll(async () => {
    certDir = await makeTempDir('hapedge-redirect')
    const cert = await makeCertificate({ dir: certDir, hosts: [HOST], name: 'shop' })
    const httpsBind = await httpsBindOn()
    httpPort = await freePort()
    httpsOrigin = origin(httpsBind.slice(httpsBind.lastIndexOf(':') + 1))
    const objects = [
      service('shop'),
      tlsSecret('shop-tls', cert.certPem, cert.keyPem),
      ingress({ name: 'shop', rules: [{ host: HOST, paths: [{ service: 'shop' }] }], tls: [{ hosts: [HOST], secretName: 'shop-tls' }] }),
    ]
    dir = (await renderToDir(objects, { httpBind: `127.0.0.1:${httpPort}`, httpsBind })).dir
    haproxy = await startHaproxy({ dir, readyPorts: [httpPort] })
  })

  afterAll(async () => {
    await haproxy?.stop()
    if (dir) await removeTempDir(dir)
    if (certDir) await removeTempDir(certDir)
  })

  it('keeps the host, path and query of every request form, naming the HTTPS port only when it is not 443', async () => {
    for (const [form, target, host, kept] of requests(httpPort)) {
      expect.soft(await rawGet(httpPort, target, host), `${form}: GET ${target} with Host ${host}`).toEqual({ status: 308, location: `${httpsOrigin}${kept}` })
    }
  })
})
