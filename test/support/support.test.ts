import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { makeCertificate } from './certificates.ts'
import { freePort } from './free-port.ts'
import { haproxyAvailable, haproxyCheck, startHaproxy } from './haproxy.ts'
import type { RunningHaproxy } from './haproxy.ts'
import { request } from './http-client.ts'
import { startNamedBackend } from './named-backends.ts'
import type { NamedBackend } from './named-backends.ts'
import { makeTempDir, removeTempDir } from './temp-dir.ts'

describe('test support harness against the real haproxy binary', () => {
  let dir: string
  let backend: NamedBackend
  let haproxy: RunningHaproxy | undefined
  let httpPort: number
  let httpsPort: number

  beforeAll(async () => {
    if (!haproxyAvailable()) throw new Error('HAProxy binary not found; set HAPROXY_BIN or install haproxy')

    dir = await makeTempDir('hapedge-support')
    // Not 127.0.0.1, to prove other loopback addresses work.
    backend = await startNamedBackend({ name: 'alpha', host: '127.0.0.2' })
    httpPort = await freePort()
    httpsPort = await freePort()
    const cert = await makeCertificate({ dir, hosts: ['secure.test'], name: 'secure' })
    await writeFile(join(dir, 'secure.pem'), cert.certPem + cert.keyPem)

    await writeFile(
      join(dir, 'haproxy.cfg'),
      [
        'global',
        '  log stderr format raw local0',
        'defaults',
        '  mode http',
        '  timeout connect 2s',
        '  timeout client 5s',
        '  timeout server 5s',
        'frontend plain',
        `  bind 127.0.0.1:${httpPort}`,
        '  default_backend b',
        'frontend secure',
        // Relative path on purpose: haproxy runs with cwd = dir.
        `  bind 127.0.0.1:${httpsPort} ssl crt secure.pem`,
        '  default_backend b',
        'backend b',
        `  server s1 ${backend.address}`,
        '',
      ].join('\n'),
    )
  })

  afterAll(async () => {
    await haproxy?.stop()
    await backend?.close()
    if (dir) await removeTempDir(dir)
  })

  it('validates the config with haproxy -c', async () => {
    const check = await haproxyCheck(dir)
    expect(check.ok, check.output).toBe(true)
  })

  it('routes an HTTP request to the named backend', async () => {
    haproxy = await startHaproxy({ dir, readyPorts: [httpPort, httpsPort] })
    const res = await request(`http://127.0.0.1:${httpPort}/hello?x=1`, {
      method: 'PATCH',
      headers: { host: 'app.test' },
      body: '{}',
    })
    expect(res.status).toBe(200)
    expect(res.headers['x-backend']).toBe('alpha')
    expect(res.json()).toMatchObject({ backend: 'alpha', method: 'PATCH', path: '/hello?x=1', host: 'app.test' })
    expect(backend.requests).toBe(1)
  })

  it('terminates TLS with the certificate for the SNI name', async () => {
    expect(haproxy, 'previous test starts haproxy').toBeDefined()
    const res = await request(`https://127.0.0.1:${httpsPort}/`, { servername: 'secure.test', method: 'HEAD' })
    expect(res.status).toBe(200)
    expect(res.headers['x-backend']).toBe('alpha')
    expect(res.tlsPeer?.subjectCN).toBe('secure.test')
    expect(res.tlsPeer?.subjectAltName).toContain('DNS:secure.test')
  })
})
