import { execFileSync } from 'node:child_process'
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { LiveCluster } from '../../core/incremental/live-cluster.ts'
import type { WatchEvent } from '../../core/incremental/watch-event.ts'
import { planFromFiles } from '../../core/plan/plan-from-files.ts'
import { REFUSED_HEADER } from '../../core/render/render-frontend.ts'
import { writeRendered } from '../../functions/adapters/generation-files/write-rendered.ts'
import { masterReload } from '../../processes/agent/master-reload.ts'
import { freePort } from '../support/free-port.ts'
import { haproxyAvailable, haproxyBinary } from '../support/haproxy.ts'
import { request } from '../support/http-client.ts'
import { startMasterWorker, type MasterWorker } from '../support/master-worker.ts'
import { authSecret, ingress } from '../support/objects.ts'
import { makeTempDir, removeTempDir } from '../support/temp-dir.ts'
import { answeredBy, serveCluster, type ServedCluster } from './serve-cluster.ts'
import { startServices, type ServiceBackends } from './service-backends.ts'

/**
 * Basic authentication through the real HAProxy: a request without credentials, or with a wrong
 * password, is answered 401 with the realm; the right password of a user whose hash HAProxy's
 * crypt(3) checks is served; a user it cannot check ($apr1$) is left out with a warning; an
 * Ingress whose Secret is missing, or holds no user left, is refused (503), never served open.
 */

const PASSWORD = 'correct horse'
const openssl = (scheme: string) => execFileSync('openssl', ['passwd', scheme, '-salt', 'hapedgesalt', PASSWORD], { encoding: 'utf8' }).trim()
const bcrypt = () => execFileSync('perl', ['-e', 'print crypt($ARGV[0], $ARGV[1])', PASSWORD, '$2b$05$abcdefghijklmnopqrstuv'], { encoding: 'utf8' })

/** One user per scheme HAProxy checks that this machine can make, and one it cannot. */
const HASHES = { bcrypt: bcrypt(), sha512crypt: openssl('-6'), sha256crypt: openssl('-5'), md5crypt: openssl('-1') }
const APR1 = openssl('-apr1')

const prefix = (path: string, service: string) => ({ path, pathType: 'Prefix' as const, service })
const guarded = (name: string, path: string, annotations: Record<string, string>) =>
  ingress({ name, annotations, rules: [{ host: 'shop.test', paths: [prefix(path, 'admin')] }] })
const credentials = (user: string, password: string) => ({ headers: { authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}` } })

describe('basic authentication', () => {
  let services: ServiceBackends
  let cluster: ServedCluster

  beforeAll(async () => {
    services = await startServices(['site', 'admin'])
    const htpasswd = [...Object.entries(HASHES).map(([user, hash]) => `${user}:${hash}`), `apache:${APR1}`].join('\n')
    cluster = await serveCluster([
      ...services.objects,
      ingress({ name: 'public', rules: [{ host: 'shop.test', paths: [prefix('/', 'site')] }] }),
      authSecret('admin-users', { auth: `${htpasswd}\n` }),
      authSecret('map-users', { [Object.keys(HASHES)[0]!]: HASHES.bcrypt, unrelated: 'not a hash' }),
      authSecret('nic-users', { htpasswd: `nic:${HASHES.sha512crypt}\n` }, 'nginx.org/htpasswd'),
      authSecret('apache-users', { auth: `apache:${APR1}\n` }),
      guarded('admin', '/admin', {
        'nginx.ingress.kubernetes.io/auth-type': 'basic',
        'nginx.ingress.kubernetes.io/auth-secret': 'admin-users',
        'nginx.ingress.kubernetes.io/auth-realm': 'Shop admins',
      }),
      guarded('mapped', '/mapped', {
        'nginx.ingress.kubernetes.io/auth-type': 'basic',
        'nginx.ingress.kubernetes.io/auth-secret': 'default/map-users',
        'nginx.ingress.kubernetes.io/auth-secret-type': 'auth-map',
      }),
      guarded('haproxytech', '/haproxytech', { 'haproxy.org/auth-type': 'basic-auth', 'haproxy.org/auth-secret': 'map-users' }),
      guarded('nic', '/nic', { 'nginx.org/basic-auth-secret': 'nic-users' }),
      guarded('apache', '/apache', { 'nginx.ingress.kubernetes.io/auth-type': 'basic', 'nginx.ingress.kubernetes.io/auth-secret': 'apache-users' }),
      guarded('missing', '/missing', { 'nginx.ingress.kubernetes.io/auth-type': 'basic', 'nginx.ingress.kubernetes.io/auth-secret': 'nobody' }),
    ])
  })

  afterAll(async () => {
    await cluster?.stop()
    await services?.close()
  })

  it('answers 401 with the realm to a request without credentials, never passing it to the Service', async () => {
    const before = services.backend('admin').requests
    const response = await cluster.get('shop.test', '/admin/users')
    expect(response.status).toBe(401)
    expect(response.headers['www-authenticate']).toBe('Basic realm="Shop admins"')
    expect(services.backend('admin').requests).toBe(before)
  })

  it('answers 401 to a wrong password', async () => {
    expect(answeredBy(await cluster.get('shop.test', '/admin', credentials('bcrypt', 'wrong')))).toBe('HTTP 401')
  })

  it.each(Object.keys(HASHES))('serves the right password of a %s user', async (user) => {
    expect(answeredBy(await cluster.get('shop.test', '/admin', credentials(user, PASSWORD)))).toBe('admin')
  })

  it('leaves a $apr1$ user out with a warning that says how to regenerate it: its right password is answered 401', async () => {
    expect(answeredBy(await cluster.get('shop.test', '/admin', credentials('apache', PASSWORD)))).toBe('HTTP 401')
    const warning = cluster.model.warnings.find(({ object, reason }) => object === 'Ingress default/admin' && reason.includes('"apache"'))
    expect(warning?.reason).toContain('htpasswd -B')
  })

  it.each([
    ['ingress-nginx auth-map', '/mapped'],
    ["haproxytech's basic-auth (one key per user)", '/haproxytech'],
  ])('reads an %s Secret', async (_, path) => {
    expect(answeredBy(await cluster.get('shop.test', path, credentials('bcrypt', PASSWORD)))).toBe('admin')
    expect(answeredBy(await cluster.get('shop.test', path))).toBe('HTTP 401')
  })

  it("reads NGINX Inc.'s nginx.org/htpasswd Secret", async () => {
    expect(answeredBy(await cluster.get('shop.test', '/nic', credentials('nic', PASSWORD)))).toBe('admin')
    expect(answeredBy(await cluster.get('shop.test', '/nic', credentials('nic', 'wrong')))).toBe('HTTP 401')
  })

  it.each([
    ['whose Secret is missing', '/missing', 'default/missing', 'Secret default/nobody does not exist'],
    ['whose Secret holds only users HAProxy cannot check', '/apache', 'default/apache', 'no user whose password hash HAProxy can check'],
  ])('refuses an Ingress %s (503, fail closed), with the reason', async (_, path, name, reason) => {
    const response = await cluster.get('shop.test', path, credentials('apache', PASSWORD))
    expect(response.status).toBe(503)
    expect(response.headers[REFUSED_HEADER.toLowerCase()]).toBeDefined()
    expect(cluster.model.rejections.find(({ object }) => object === `Ingress ${name}`)?.reason).toContain(reason)
  })

  it('keeps serving the routes of the host without authentication', async () => {
    expect(answeredBy(await cluster.get('shop.test', '/'))).toBe('site')
  })

  it('never writes a password hash into a warning or a rejection', () => {
    const told = JSON.stringify([cluster.model.warnings, cluster.model.rejections])
    for (const hash of [...Object.values(HASHES), APR1]) expect(told).not.toContain(hash)
  })
})

describe('changed users through the agent', () => {
  let root: string
  let conf: string
  let haproxy: MasterWorker
  let live: LiveCluster
  let services: ServiceBackends
  let httpPort: number
  let reload: Parameters<typeof masterReload>[0]

  const event = (type: WatchEvent['type'], object: unknown): WatchEvent => ({ type, object: object as Record<string, unknown> })
  const get = (user: string) => request(`http://127.0.0.1:${httpPort}/admin`, { headers: { host: 'shop.test', ...credentials(user, PASSWORD).headers } })
  const users = (...names: string[]) => authSecret('admin-users', { auth: names.map((name) => `${name}:${HASHES.sha512crypt}\n`).join('') })

  beforeAll(async () => {
    if (!haproxyAvailable()) throw new Error('HAProxy binary not found; set HAPROXY_BIN or install haproxy')
    root = await makeTempDir('hapedge-basic-auth')
    conf = join(root, 'conf')
    services = await startServices(['admin'])
    httpPort = await freePort()
    live = new LiveCluster({ httpBind: `127.0.0.1:${httpPort}`, httpsBind: `127.0.0.1:${await freePort()}` })
    const admin = guarded('admin', '/admin', { 'nginx.ingress.kubernetes.io/auth-type': 'basic', 'nginx.ingress.kubernetes.io/auth-secret': 'admin-users' })
    live.apply([...services.objects, admin, users('alice')].map((object) => event('ADDED', object)))
    await writeRendered(conf, live.files())
    const agentConfig = join(root, 'agent.cfg')
    await writeFile(agentConfig, 'global\n')
    reload = { masterSocket: join(root, 'master.sock'), configs: [agentConfig, conf], cwd: conf, binary: haproxyBinary, timeoutMs: 15_000 }
    haproxy = await startMasterWorker(reload, [httpPort])
  })

  afterAll(async () => {
    await haproxy?.stop()
    await services?.close()
    if (root) await removeTempDir(root)
  })

  it("reloads for a user added to the Secret (HAProxy 2.6 has no runtime command for userlists), saying which Secret's userlist changed", async () => {
    expect(answeredBy(await get('alice'))).toBe('admin')
    expect(answeredBy(await get('bob'))).toBe('HTTP 401')
    const before = live.files()
    const { plan } = live.apply([event('MODIFIED', users('alice', 'bob'))])
    expect(plan.reasons).toEqual(['userlist of Secret default/admin-users changed: HAProxy 2.6 reads users only at a reload'])
    const agentPlan = planFromFiles(before, live.files())
    expect(agentPlan).toMatchObject({ reload: true, reasons: ['05-userlists.cfg changed'] })
    await writeRendered(conf, live.files())
    await masterReload(reload)
    expect(answeredBy(await get('bob'))).toBe('admin')
  })
})
