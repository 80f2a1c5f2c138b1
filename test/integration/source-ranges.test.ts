import { writeFile } from 'node:fs/promises'
import { get } from 'node:http'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { LiveCluster } from '../../core/incremental/live-cluster.ts'
import type { WatchEvent } from '../../core/incremental/watch-event.ts'
import { planFromFiles } from '../../core/plan/plan-from-files.ts'
import { REFUSED_HEADER } from '../../core/render/render-frontend.ts'
import { writeRendered } from '../../functions/adapters/generation-files/write-rendered.ts'
import { haproxySocket, type HaproxySocket } from '../../processes/agent/haproxy-socket.ts'
import { applyAtRuntime } from '../../processes/agent/runtime-commands.ts'
import { parseShowProc } from '../../processes/agent/show-proc.ts'
import { freePort } from '../support/free-port.ts'
import { haproxyAvailable, haproxyBinary, haproxyCheck, startHaproxy, type RunningHaproxy } from '../support/haproxy.ts'
import { request, type HttpResponse } from '../support/http-client.ts'
import { startMasterWorker, type MasterWorker } from '../support/master-worker.ts'
import { configMap, ingress } from '../support/objects.ts'
import { makeTempDir, removeTempDir } from '../support/temp-dir.ts'
import { answeredBy, renderToDir, serveCluster, type ServedCluster } from './serve-cluster.ts'
import { startServices, type ServiceBackends } from './service-backends.ts'

/**
 * Source ranges through the real HAProxy, from loopback: HAProxy sees 127.0.0.1 as the client.
 * An allow-list serves the addresses it lists and answers 403 to the others, a deny-list 403 to
 * those it lists; X-Forwarded-For counts only from a trusted proxy (the cluster's settings); a
 * changed list is applied by the agent through the runtime API, without a reload.
 */

const prefix = (path: string, service: string) => ({ path, pathType: 'Prefix' as const, service })
const listed = (name: string, path: string, annotations: Record<string, string>) =>
  ingress({ name, annotations, rules: [{ host: 'office.test', paths: [prefix(path, 'office')] }] })

/** One Ingress per case on office.test, under its own path; `/` is an Ingress without a list. */
const OFFICE = [
  ingress({ name: 'public', rules: [{ host: 'office.test', paths: [prefix('/', 'site')] }] }),
  listed('inside', '/inside', { 'nginx.ingress.kubernetes.io/whitelist-source-range': '127.0.0.1/32' }),
  listed('outside', '/outside', { 'nginx.ingress.kubernetes.io/allowlist-source-range': '10.0.0.0/8' }),
  listed('denied', '/denied', { 'haproxy.org/deny-list': '127.0.0.1' }),
  listed('spared', '/spared', { 'hapedge.io/denylist-source-range': '10.0.0.0/8' }),
  listed('excepted', '/excepted', { 'haproxy-ingress.github.io/allowlist-source-range': '127.0.0.0/8,!127.0.0.1' }),
  listed('six', '/six', { 'hapedge.io/allowlist-source-range': '::1/128' }),
  listed('unreadable', '/unreadable', { 'nginx.ingress.kubernetes.io/whitelist-source-range': '127.0.0.1/33' }),
  // The cluster's catch-all, from an Ingress with a list: checked as its routes are.
  ingress({ name: 'catch-all', annotations: { 'nginx.ingress.kubernetes.io/allowlist-source-range': '10.0.0.0/8' }, defaultBackend: { service: 'office' } }),
]

describe('source ranges', () => {
  let services: ServiceBackends
  let plain: ServedCluster
  let behindProxy: ServedCluster

  beforeAll(async () => {
    services = await startServices(['site', 'office'])
    const objects = [...services.objects, ...OFFICE]
    plain = await serveCluster(objects)
    behindProxy = await serveCluster([...objects, configMap({ 'use-forwarded-headers': 'true', 'proxy-real-ip-cidr': '127.0.0.1/32' })])
  })

  afterAll(async () => {
    await plain?.stop()
    await behindProxy?.stop()
    await services?.close()
  })

  it.each([
    ['an allow-list that lists the client serves', '/inside', 'office'],
    ['an allow-list that does not list it answers 403', '/outside', 'HTTP 403'],
    ['a deny-list that lists it answers 403', '/denied', 'HTTP 403'],
    ['a deny-list that does not list it serves', '/spared', 'office'],
    ['an allow-list that lists it as a "!" exception answers 403', '/excepted', 'HTTP 403'],
    ['an allow-list of IPv6 addresses only answers 403 to an IPv4 client', '/six', 'HTTP 403'],
    ['a route of the host without a list serves', '/', 'site'],
  ])('%s', async (_, path, expected) => {
    expect(answeredBy(await plain.get('office.test', path))).toBe(expected)
  })

  it('answers 403 from the default backend of an Ingress whose allow-list does not list the client', async () => {
    expect(answeredBy(await plain.get('elsewhere.test', '/'))).toBe('HTTP 403')
    expect(answeredBy(await behindProxy.get('elsewhere.test', '/', { headers: { 'x-forwarded-for': '10.9.9.9' } }))).toBe('office')
  })

  it('answers 403 itself, never passing the request to the Service', async () => {
    const before = services.backend('office').requests
    const response = await plain.get('office.test', '/outside/x')
    expect(response.status).toBe(403)
    expect(services.backend('office').requests).toBe(before)
  })

  it('refuses an Ingress whose list cannot be read (503, fail closed), never serving it open', async () => {
    const response = await plain.get('office.test', '/unreadable')
    expect(response.status).toBe(503)
    expect(response.headers[REFUSED_HEADER.toLowerCase()]).toBeDefined()
  })

  it('ignores X-Forwarded-For without trusted proxies: a client cannot claim a listed address', async () => {
    const claim = { headers: { 'x-forwarded-for': '10.1.2.3' } }
    expect(answeredBy(await plain.get('office.test', '/outside', claim))).toBe('HTTP 403')
    expect(answeredBy(await plain.get('office.test', '/inside', claim))).toBe('office')
  })

  it("takes the client's address from the last X-Forwarded-For entry when the connection comes from a trusted proxy", async () => {
    const via = (addresses: string) => ({ headers: { 'x-forwarded-for': addresses } })
    expect(answeredBy(await behindProxy.get('office.test', '/outside', via('10.1.2.3')))).toBe('office')
    expect(answeredBy(await behindProxy.get('office.test', '/inside', via('10.1.2.3')))).toBe('HTTP 403')
    // The entry the trusted proxy appended is the last one: an earlier one is the client's own claim.
    expect(answeredBy(await behindProxy.get('office.test', '/outside', via('10.1.2.3, 192.0.2.1')))).toBe('HTTP 403')
    expect(answeredBy(await behindProxy.get('office.test', '/inside'))).toBe('office')
  })
})

describe('source ranges on a dual-stack bind ([::]), from ::1 and from 127.0.0.1', () => {
  let services: ServiceBackends
  let haproxy: RunningHaproxy | undefined
  let dir: string
  let port: number

  /** One request from this loopback address (the test client's URLs take no bracketed IPv6 host). */
  const from = (address: string, path: string) =>
    new Promise<HttpResponse>((resolve, reject) => {
      get({ hostname: address, port, path, headers: { host: 'office.test' }, agent: false }, (response) => {
        response
          .resume()
          .on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: '', json: () => undefined, tlsPeer: undefined }))
      }).on('error', reject)
    })

  beforeAll(async () => {
    services = await startServices(['site', 'office'])
    port = await freePort()
    ;({ dir } = await renderToDir([...services.objects, ...OFFICE], { httpBind: `[::]:${port}`, httpsBind: `[::]:${await freePort()}` }))
    const check = await haproxyCheck(dir)
    if (!check.ok) throw new Error(`haproxy -c rejected the rendered configuration:\n${check.output}`)
    haproxy = await startHaproxy({ dir, readyPorts: [port] })
  })

  afterAll(async () => {
    await haproxy?.stop()
    await services?.close()
    if (dir) await removeTempDir(dir)
  })

  it('serves an IPv6 allow-list to ::1 and answers 403 to an IPv4 client', async () => {
    expect(answeredBy(await from('::1', '/six'))).toBe('office')
    expect(answeredBy(await from('127.0.0.1', '/six'))).toBe('HTTP 403')
  })

  it('matches IPv4 lists against an IPv4 client seen through the IPv6 socket (::ffff:127.0.0.1), and not against ::1', async () => {
    expect(answeredBy(await from('127.0.0.1', '/inside'))).toBe('office')
    expect(answeredBy(await from('127.0.0.1', '/denied'))).toBe('HTTP 403')
    expect(answeredBy(await from('::1', '/inside'))).toBe('HTTP 403')
    expect(answeredBy(await from('::1', '/denied'))).toBe('office')
  })
})

describe('a changed list through the agent', () => {
  let root: string
  let conf: string
  let haproxy: MasterWorker
  let stats: HaproxySocket
  let live: LiveCluster
  let services: ServiceBackends
  let httpPort: number

  const added = (object: unknown): WatchEvent => ({ type: 'ADDED', object: object as Record<string, unknown> })
  const modified = (object: unknown): WatchEvent => ({ type: 'MODIFIED', object: object as Record<string, unknown> })
  const get = (path: string) => request(`http://127.0.0.1:${httpPort}${path}`, { headers: { host: 'office.test' } })
  const workers = async () => parseShowProc(await haproxySocket({ path: join(root, 'master.sock') }).run('show proc')).workers.map((worker) => worker.pid)

  beforeAll(async () => {
    if (!haproxyAvailable()) throw new Error('HAProxy binary not found; set HAPROXY_BIN or install haproxy')
    root = await makeTempDir('hapedge-source-ranges')
    conf = join(root, 'conf')
    services = await startServices(['site', 'office'])
    httpPort = await freePort()
    const options = { httpBind: `127.0.0.1:${httpPort}`, httpsBind: `127.0.0.1:${await freePort()}` }
    live = new LiveCluster(options)
    live.apply([...services.objects, OFFICE[0], listed('guarded', '/guarded', { 'hapedge.io/allowlist-source-range': '10.0.0.0/8' })].map(added))
    await writeRendered(conf, live.files())
    const agentConfig = join(root, 'agent.cfg')
    await writeFile(agentConfig, `global\n    stats socket ${join(root, 'admin.sock')} mode 600 level admin\n`)
    const reload = { masterSocket: join(root, 'master.sock'), configs: [agentConfig, conf], cwd: conf, binary: haproxyBinary, timeoutMs: 15_000 }
    haproxy = await startMasterWorker(reload, [httpPort])
    stats = haproxySocket({ path: join(root, 'admin.sock') })
  })

  afterAll(async () => {
    await haproxy?.stop()
    await services?.close()
    if (root) await removeTempDir(root)
  })

  /** One change through the engine, its files written and applied at runtime as the agent plans it from the files. */
  async function atRuntime(annotations: Record<string, string>) {
    const before = live.files()
    const { plan } = live.apply([modified(listed('guarded', '/guarded', annotations))])
    const files = live.files()
    const agentPlan = planFromFiles(before, files)
    await writeRendered(conf, files)
    const applied = await applyAtRuntime(stats, agentPlan, files)
    return { plan, agentPlan, applied }
  }

  it('edits the ACL files at runtime (add acl, then del acl), with the same worker, for a changed allow-list and a deny-list added', async () => {
    expect(answeredBy(await get('/guarded'))).toBe('HTTP 403')
    const worker = await workers()
    const allowed = await atRuntime({ 'hapedge.io/allowlist-source-range': '127.0.0.1/32' })
    expect(allowed.plan).toMatchObject({ reload: false, reasons: [] })
    expect(allowed.agentPlan).toMatchObject({ reload: false, reasons: [] })
    expect(allowed.applied.commands.filter((command) => / acl /.test(command))).toEqual([
      expect.stringMatching(/^add acl \S*acls\/default_guarded\.allow\.acl 127\.0\.0\.1\/32$/),
      expect.stringMatching(/^del acl \S*acls\/default_guarded\.allow\.acl 10\.0\.0\.0\/8$/),
    ])
    expect(answeredBy(await get('/guarded'))).toBe('office')

    const denied = await atRuntime({ 'hapedge.io/allowlist-source-range': '127.0.0.1/32', 'haproxy.org/deny-list': '127.0.0.1' })
    expect(denied.agentPlan).toMatchObject({ reload: false })
    expect(answeredBy(await get('/guarded'))).toBe('HTTP 403')
    expect(await workers()).toEqual(worker)
  })

  it('says why a list that appears or goes needs a reload: the frontend has rules per Ingress with lists', async () => {
    const { plan } = live.apply([modified(listed('guarded', '/guarded', {}))])
    expect(plan.reload).toBe(true)
    expect(plan.reasons).toContain('Ingress default/guarded lost its source ranges: the frontend drops their rules')
    const { plan: again } = live.apply([modified(listed('guarded', '/guarded', { 'haproxy.org/allow-list': '127.0.0.1' }))])
    expect(again.reasons).toContain('Ingress default/guarded gained source ranges: the frontend has rules for them')
  })
})
