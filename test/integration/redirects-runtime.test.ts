import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { LiveCluster } from '../../core/incremental/live-cluster.ts'
import type { WatchEvent } from '../../core/incremental/watch-event.ts'
import { planFromFiles } from '../../core/plan/plan-from-files.ts'
import { FILES } from '../../core/render/files.ts'
import { writeRendered } from '../../functions/adapters/generation-files/write-rendered.ts'
import { haproxySocket, type HaproxySocket } from '../../processes/agent/haproxy-socket.ts'
import type { MasterReloadOptions } from '../../processes/agent/master-reload.ts'
import { applyAtRuntime, type RuntimeApplied } from '../../processes/agent/runtime-commands.ts'
import { parseShowProc } from '../../processes/agent/show-proc.ts'
import { makeCertificate } from '../support/certificates.ts'
import { freePort } from '../support/free-port.ts'
import { haproxyAvailable, haproxyBinary } from '../support/haproxy.ts'
import { request } from '../support/http-client.ts'
import { startMasterWorker, type MasterWorker } from '../support/master-worker.ts'
import { ingress, tlsSecret } from '../support/objects.ts'
import { makeTempDir, removeTempDir } from '../support/temp-dir.ts'
import { answeredBy } from './serve-cluster.ts'
import { startServices, type ServiceBackends } from './service-backends.ts'

/**
 * A redirect's target and code, an app-root, an HSTS max-age and the HTTPS redirect's code changed
 * are applied by the agent through the runtime API (map edits), as the engine plans them: no
 * reload, the same worker, and the next requests answered with the new values.
 */

const added = (object: unknown): WatchEvent => ({ type: 'ADDED', object: object as Record<string, unknown> })
const modified = (object: unknown): WatchEvent => ({ type: 'MODIFIED', object: object as Record<string, unknown> })

const moved = (url: string, code: string) =>
  ingress({
    name: 'moved',
    annotations: { 'nginx.ingress.kubernetes.io/permanent-redirect': url, 'nginx.ingress.kubernetes.io/permanent-redirect-code': code },
    rules: [{ host: 'moved.test', paths: [{ path: '/old', service: 'site' }] }],
  })
const secure = (annotations: Record<string, string>) =>
  ingress({
    name: 'secure',
    annotations,
    rules: [{ host: 'secure.test', paths: [{ path: '/', service: 'site' }] }],
    tls: [{ hosts: ['secure.test'], secretName: 'secure-tls' }],
  })

describe('redirects and HSTS change at runtime', () => {
  let root: string
  let conf: string
  let haproxy: MasterWorker
  let stats: HaproxySocket
  let services: ServiceBackends
  let live: LiveCluster
  let httpPort: number
  let httpsPort: number

  const get = (host: string, path: string) => request(`http://127.0.0.1:${httpPort}${path}`, { headers: { host } })
  const getHttps = (host: string, path: string) => request(`https://127.0.0.1:${httpsPort}${path}`, { servername: host, headers: { host } })
  const workers = async () => parseShowProc(await haproxySocket({ path: join(root, 'master.sock') }).run('show proc')).workers.map((worker) => worker.pid)

  /** One change through the engine: its files written, and applied at runtime as the agent plans it from the files. */
  async function atRuntime(events: WatchEvent[]): Promise<RuntimeApplied> {
    const before = live.files()
    const { plan } = live.apply(events)
    expect(plan, 'a change the runtime API can take').toMatchObject({ reload: false, reasons: [] })
    const files = live.files()
    await writeRendered(conf, files)
    return applyAtRuntime(stats, planFromFiles(before, files), files)
  }

  beforeAll(async () => {
    if (!haproxyAvailable()) throw new Error('HAProxy binary not found; set HAPROXY_BIN or install haproxy')
    root = await makeTempDir('hapedge-redirects-runtime')
    conf = join(root, 'conf')
    services = await startServices(['site'])
    const cert = await makeCertificate({ dir: root, hosts: ['secure.test'], name: 'secure' })
    ;[httpPort, httpsPort] = [await freePort(), await freePort()]
    live = new LiveCluster({ httpBind: `127.0.0.1:${httpPort}`, httpsBind: `127.0.0.1:${httpsPort}` })
    live.apply(
      [
        ...services.objects,
        tlsSecret('secure-tls', cert.certPem, cert.keyPem),
        moved('https://example.com/first', '301'),
        secure({ 'hapedge.io/hsts': 'true', 'hapedge.io/hsts-max-age': '600', 'hapedge.io/app-root': '/first' }),
      ].map(added),
    )
    await writeRendered(conf, live.files())
    const agentConfig = join(root, 'agent.cfg')
    await writeFile(agentConfig, `global\n    stats socket ${join(root, 'admin.sock')} mode 600 level admin\n`)
    const reload: MasterReloadOptions = {
      masterSocket: join(root, 'master.sock'),
      configs: [agentConfig, conf],
      cwd: conf,
      binary: haproxyBinary,
      timeoutMs: 15_000,
    }
    haproxy = await startMasterWorker(reload, [httpPort, httpsPort])
    stats = haproxySocket({ path: join(root, 'admin.sock') })
  })

  afterAll(async () => {
    await haproxy?.stop()
    await services?.close()
    if (root) await removeTempDir(root)
  })

  it('serves the first values', async () => {
    const redirect = await get('moved.test', '/old/page')
    expect({ status: redirect.status, location: redirect.headers.location }).toEqual({ status: 301, location: 'https://example.com/first' })
    const https = await get('secure.test', '/x')
    expect({ status: https.status, location: https.headers.location }).toEqual({ status: 308, location: `https://secure.test:${httpsPort}/x` })
    const root = await getHttps('secure.test', '/')
    expect({ status: root.status, location: root.headers.location }).toEqual({ status: 302, location: 'https://secure.test/first' })
    const served = await getHttps('secure.test', '/x')
    expect(answeredBy(served)).toBe('site')
    expect(served.headers['strict-transport-security']).toBe('max-age=600')
  })

  it('applies a new redirect target and code with a map edit, without a reload', async () => {
    const before = await workers()
    const applied = await atRuntime([modified(moved('https://example.com/second?x=1', '308'))])
    // A Prefix path is looked up exactly, then as a prefix: both its entries change.
    expect(applied.maps.map(({ name }) => name).sort()).toEqual([FILES.locationExactMap, FILES.locationPrefixMap])
    const redirect = await get('moved.test', '/old')
    expect({ status: redirect.status, location: redirect.headers.location }).toEqual({ status: 308, location: 'https://example.com/second?x=1' })
    expect(await workers()).toEqual(before)
  })

  it('applies a new HSTS max-age, app-root and HTTPS redirect code with map edits, without a reload', async () => {
    const before = await workers()
    const applied = await atRuntime([
      modified(
        secure({
          'hapedge.io/hsts': 'true',
          'hapedge.io/hsts-max-age': '1200',
          'hapedge.io/hsts-preload': 'true',
          'hapedge.io/app-root': '/second',
          'hapedge.io/ssl-redirect-code': '301',
        }),
      ),
    ])
    expect(applied.maps.map(({ name }) => name).sort()).toEqual([FILES.appRootMap, FILES.hstsMap, FILES.redirectMap].sort())
    const https = await get('secure.test', '/x')
    expect({ status: https.status, location: https.headers.location }).toEqual({ status: 301, location: `https://secure.test:${httpsPort}/x` })
    const root = await getHttps('secure.test', '/')
    expect({ status: root.status, location: root.headers.location }).toEqual({ status: 302, location: 'https://secure.test/second' })
    expect((await getHttps('secure.test', '/x')).headers['strict-transport-security']).toBe('max-age=1200; preload')
    expect(await workers()).toEqual(before)
  })
})
