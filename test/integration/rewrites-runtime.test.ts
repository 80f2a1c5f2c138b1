import { writeFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
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
import { freePort } from '../support/free-port.ts'
import { haproxyAvailable, haproxyBinary } from '../support/haproxy.ts'
import { request } from '../support/http-client.ts'
import { startMasterWorker, type MasterWorker } from '../support/master-worker.ts'
import { endpointSlice, ingress, service } from '../support/objects.ts'
import { makeTempDir, removeTempDir } from '../support/temp-dir.ts'

/**
 * A rewrite's target, its X-Forwarded-Prefix, and a use-regex path with its captures, changed, are
 * applied by the agent through the runtime API (map edits) as the engine plans them: no reload, the
 * same worker, and the next requests reach the loopback backend with the new path and header.
 */

const added = (object: unknown): WatchEvent => ({ type: 'ADDED', object: object as Record<string, unknown> })
const modified = (object: unknown): WatchEvent => ({ type: 'MODIFIED', object: object as Record<string, unknown> })

const app = (annotations: Record<string, string>, path = '/app', pathType: 'Prefix' | 'ImplementationSpecific' = 'Prefix') =>
  ingress({ name: 'app', annotations, rules: [{ host: 'app.test', paths: [{ path, pathType, service: 'echo' }] }] })

describe('rewrites change at runtime', () => {
  let root: string
  let conf: string
  let haproxy: MasterWorker
  let stats: HaproxySocket
  let backend: Server
  let live: LiveCluster
  let httpPort: number

  const received = async (path: string) => {
    const response = await request(`http://127.0.0.1:${httpPort}${path}`, { headers: { host: 'app.test' } })
    expect(response.status).toBe(200)
    return JSON.parse(response.body) as { url: string; prefix: string | null }
  }
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
    root = await makeTempDir('hapedge-rewrites-runtime')
    conf = join(root, 'conf')
    backend = createServer((req, res) => res.end(JSON.stringify({ url: req.url, prefix: req.headers['x-forwarded-prefix'] ?? null })))
    await new Promise<void>((resolve) => backend.listen(0, '127.0.0.1', resolve))
    const { port } = backend.address() as AddressInfo
    httpPort = await freePort()
    live = new LiveCluster({ httpBind: `127.0.0.1:${httpPort}`, httpsBind: `127.0.0.1:${await freePort()}` })
    live.apply(
      [
        service('echo'),
        endpointSlice('echo', [{ address: '127.0.0.1', ready: true }], [{ port }]),
        app({ 'haproxy-ingress.github.io/rewrite-target': '/' }),
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
    haproxy = await startMasterWorker(reload, [httpPort])
    stats = haproxySocket({ path: join(root, 'admin.sock') })
  })

  afterAll(async () => {
    await haproxy?.stop()
    await new Promise((resolve) => backend?.close(resolve))
    if (root) await removeTempDir(root)
  })

  it('serves the first rewrite', async () => {
    expect(await received('/app/x?q=1')).toEqual({ url: '/x?q=1', prefix: null })
  })

  it('applies a new target and an X-Forwarded-Prefix with map edits, without a reload', async () => {
    const before = await workers()
    const applied = await atRuntime([
      modified(app({ 'haproxy-ingress.github.io/rewrite-target': '/v2/', 'nginx.ingress.kubernetes.io/x-forwarded-prefix': '/app' })),
    ])
    expect(applied.maps.map(({ name }) => name).sort()).toEqual([FILES.rewriteExactMap, FILES.rewritePrefixMap])
    expect(await received('/app/x?q=1')).toEqual({ url: '/v2/x?q=1', prefix: '/app' })
    expect(await workers()).toEqual(before)
  })

  it('applies a use-regex path and a target with captures with map edits, without a reload', async () => {
    const before = await workers()
    await atRuntime([modified(app({ 'nginx.ingress.kubernetes.io/rewrite-target': '/api/$2' }, '/shop(/|$)(.*)', 'ImplementationSpecific'))])
    expect(await received('/shop/cart/1')).toEqual({ url: '/api/cart/1', prefix: null })
    expect(await received('/shop')).toEqual({ url: '/api/', prefix: null })
    expect(await workers()).toEqual(before)
  })
})
