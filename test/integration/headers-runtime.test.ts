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
import { applyAtRuntime } from '../../processes/agent/runtime-commands.ts'
import { parseShowProc } from '../../processes/agent/show-proc.ts'
import { freePort } from '../support/free-port.ts'
import { haproxyAvailable, haproxyBinary } from '../support/haproxy.ts'
import { request } from '../support/http-client.ts'
import { startMasterWorker, type MasterWorker } from '../support/master-worker.ts'
import { ingress } from '../support/objects.ts'
import { makeTempDir, removeTempDir } from '../support/temp-dir.ts'
import { startServices, type ServiceBackends } from './service-backends.ts'

/**
 * A header's value changed is applied by the agent through the runtime API (`set map`), as the
 * engine plans it: no reload, the same worker, and the next request carries the new value, spaces,
 * `%`, `;` and quotes included (they travel percent-encoded, so no command line splits them).
 */

const added = (object: unknown): WatchEvent => ({ type: 'ADDED', object: object as Record<string, unknown> })
const modified = (object: unknown): WatchEvent => ({ type: 'MODIFIED', object: object as Record<string, unknown> })

const site = (value: string) =>
  ingress({
    name: 'site',
    annotations: { 'hapedge.io/request-set-header': `X-Team ${value}`, 'hapedge.io/response-set-header': `X-Served-By ${value}` },
    rules: [{ host: 'site.test', paths: [{ path: '/', service: 'echo' }] }],
  })

describe('a header value changes at runtime', () => {
  let root: string
  let conf: string
  let haproxy: MasterWorker
  let stats: HaproxySocket
  let services: ServiceBackends
  let live: LiveCluster
  let httpPort: number

  const get = () => request(`http://127.0.0.1:${httpPort}/`, { headers: { host: 'site.test' } })
  const workers = async () => parseShowProc(await haproxySocket({ path: join(root, 'master.sock') }).run('show proc')).workers.map((worker) => worker.pid)

  beforeAll(async () => {
    if (!haproxyAvailable()) throw new Error('HAProxy binary not found; set HAPROXY_BIN or install haproxy')
    root = await makeTempDir('hapedge-headers-runtime')
    conf = join(root, 'conf')
    services = await startServices(['echo'])
    httpPort = await freePort()
    live = new LiveCluster({ httpBind: `127.0.0.1:${httpPort}`, httpsBind: `127.0.0.1:${await freePort()}` })
    live.apply([...services.objects, site('first')].map(added))
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
    await services?.close()
    if (root) await removeTempDir(root)
  })

  it('sends the new request and response values after a map edit, without a reload', async () => {
    const first = await get()
    expect([first.json().headers['x-team'], first.headers['x-served-by']]).toEqual(['first', 'first'])
    const before = await workers()

    const changed = 'second value; 100% "sure" %[env(HOME)]'
    const files = live.files()
    const { plan } = live.apply([modified(site(changed))])
    expect(plan).toMatchObject({ reload: false, reasons: [] })
    await writeRendered(conf, live.files())
    const applied = await applyAtRuntime(stats, planFromFiles(files, live.files()), live.files())
    expect(applied.maps.map(({ name }) => name)).toEqual([FILES.headerValuesMap])

    const second = await get()
    expect([second.json().headers['x-team'], second.headers['x-served-by']]).toEqual([changed, changed])
    expect(await workers()).toEqual(before)
  })
})
