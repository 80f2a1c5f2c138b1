import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Agent } from '../../processes/agent/agent.ts'
import { haproxyControl, haproxyConfigs } from '../../processes/agent/haproxy-control.ts'
import { haproxySocket } from '../../processes/agent/haproxy-socket.ts'
import { parseShowProc } from '../../processes/agent/show-proc.ts'
import { harness } from '../functions/app/app-harness.ts'
import { coldContext } from '../support/contracts/cluster-apps.ts'
import { freePort } from '../support/free-port.ts'
import { haproxyAvailable, haproxyBinary } from '../support/haproxy.ts'
import { request } from '../support/http-client.ts'
import { startMasterWorker, type MasterWorker } from '../support/master-worker.ts'
import { startNamedBackend, type NamedBackend } from '../support/named-backends.ts'
import { endpointSlice, ingress, service, type PathSpec } from '../support/objects.ts'
import { makeTempDir, removeTempDir } from '../support/temp-dir.ts'
import { answeredBy } from './serve-cluster.ts'

/**
 * The agent following a cluster with the real HAProxy 2.6 beside it: the function (the app, in
 * process, on a memory store), the agent installing each generation and applying it at runtime
 * or by a checked reload, HAProxy serving loopback backends.
 */
describe('the agent keeps HAProxy on the newest generation', () => {
  let root: string
  let dir: string
  let haproxy: MasterWorker
  let httpPort: number
  let web: NamedBackend[]
  let api: NamedBackend
  const server = harness()
  let token: string
  const source = () => server.sourceFor('edge', token)
  const send = (...objects: unknown[]) =>
    server.events(
      'edge',
      token,
      objects.map((object) => ({ type: 'MODIFIED', object })),
    )
  const shop = (paths: PathSpec[]) => ingress({ name: 'shop', annotations: { 'hapedge.io/ssl-redirect': 'false' }, rules: [{ host: 'shop.test', paths }] })
  const slice = (name: string, backends: NamedBackend[]) =>
    endpointSlice(
      name,
      backends.map((backend) => backend.host),
      [{ port: backends[0]!.port }],
    )
  const answers = async (path: string, times = 8) => {
    const seen = new Set<string>()
    for (let i = 0; i < times; i++) seen.add(answeredBy(await request(`http://127.0.0.1:${httpPort}${path}`, { headers: { host: 'shop.test' } })))
    return [...seen].sort()
  }
  const workers = async () => parseShowProc(await haproxySocket({ path: join(root, 'master.sock') }).run('show proc')).workers.map((worker) => worker.pid)

  beforeAll(async () => {
    if (!haproxyAvailable()) throw new Error('HAProxy binary not found; set HAPROXY_BIN or install haproxy')
    root = await makeTempDir('hapedge-agent-follow')
    dir = join(root, 'haproxy')
    const first = await startNamedBackend({ name: 'web-1', host: '127.0.0.21' })
    web = [
      first,
      await startNamedBackend({ name: 'web-2', host: '127.0.0.22', port: first.port }),
      await startNamedBackend({ name: 'web-3', host: '127.0.0.23', port: first.port }),
    ]
    api = await startNamedBackend({ name: 'api', host: '127.0.0.24' })
    httpPort = await freePort()
    token = await server.register('edge', { httpBind: `127.0.0.1:${httpPort}`, httpsBind: `127.0.0.1:${await freePort()}` })
    await send(shop([{ path: '/', service: 'web' }]), service('web'), slice('web', web.slice(0, 1)), service('api'), slice('api', [api]))

    // The init container: the generation written whole before HAProxy starts.
    expect(await new Agent(source(), dir, coldContext()).sync()).toMatchObject({ generation: 1, applied: 'written', lastError: null })
    await haproxyControl({ dir, statsSocket: join(root, 'stats.sock'), masterSocket: join(root, 'master.sock'), binary: haproxyBinary })
    haproxy = await startMasterWorker({ masterSocket: join(root, 'master.sock'), configs: haproxyConfigs(dir), cwd: dir, binary: haproxyBinary }, [httpPort])
  })
  afterAll(async () => {
    await haproxy?.stop()
    for (const backend of [...(web ?? []), ...(api ? [api] : [])]) await backend.close()
    await removeTempDir(root)
  })

  it('applies endpoint changes at runtime, a new backend by a reload, and catches up after a restart', async () => {
    const control = await haproxyControl({ dir, statsSocket: join(root, 'stats.sock'), masterSocket: join(root, 'master.sock'), binary: haproxyBinary })
    const agent = new Agent(source(), dir, coldContext(), control)
    expect(await answers('/')).toEqual(['web-1'])
    const pids = await workers()

    await send(slice('web', web))
    expect(await agent.sync()).toMatchObject({ generation: 2, applied: 'runtime', lastError: null })
    expect(await answers('/', 12)).toEqual(['web-1', 'web-2', 'web-3'])
    await send(slice('web', web.slice(2)))
    expect(await agent.sync()).toMatchObject({ generation: 3, applied: 'runtime' })
    expect(await answers('/')).toEqual(['web-3'])
    expect(await workers()).toEqual(pids)

    await send(
      shop([
        { path: '/', service: 'web' },
        { path: '/api', service: 'api' },
      ]),
    )
    expect(await agent.sync()).toMatchObject({ generation: 4, applied: 'reload', lastError: null })
    expect(await answers('/api')).toEqual(['api'])
    expect(await workers()).not.toEqual(pids)

    // While no agent runs, the cluster moves on; a new one (empty cache) applies the whole difference.
    await send(slice('web', web.slice(0, 2)))
    await send(
      shop([
        { path: '/', service: 'web' },
        { path: '/api', service: 'api' },
        { path: '/v2', pathType: 'Exact', service: 'api' },
      ]),
    )
    const restarted = new Agent(source(), dir, coldContext(), control)
    expect(await restarted.sync()).toMatchObject({ generation: 6, applied: 'runtime', lastError: null })
    expect(await answers('/', 10)).toEqual(['web-1', 'web-2'])
    expect(await answers('/v2')).toEqual(['api'])
    // Exact matches the whole path only: /v2/x falls to the Prefix `/`.
    expect(await answers('/v2/x', 10)).toEqual(['web-1', 'web-2'])
  })
})
