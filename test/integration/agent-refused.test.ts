import { mkdir, readlink } from 'node:fs/promises'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { serve, type ServerType } from '@hono/node-server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { commitEvents } from '../../core/commit/commit-events.ts'
import type { AgentPlan } from '../../core/plan/plan.ts'
import { Agent, type HaproxyControl } from '../../processes/agent/agent.ts'
import { haproxyConfigs, haproxyControl } from '../../processes/agent/haproxy-control.ts'
import { statusReporter } from '../../processes/agent/report-status.ts'
import { harness } from '../functions/app/app-harness.ts'
import { coldContext } from '../support/contracts/cluster-apps.ts'
import { fixtureCertificate } from '../support/fixtures.ts'
import { freePort } from '../support/free-port.ts'
import { haproxyAvailable, haproxyBinary, haproxyCheck } from '../support/haproxy.ts'
import { request } from '../support/http-client.ts'
import { startMasterWorker, type MasterWorker } from '../support/master-worker.ts'
import { startNamedBackend, type NamedBackend } from '../support/named-backends.ts'
import { endpointSlice, ingress, service, tlsSecret } from '../support/objects.ts'
import { hapedge } from '../support/run-cli.ts'
import { makeTempDir, removeTempDir } from '../support/temp-dir.ts'
import { answeredBy } from './serve-cluster.ts'

/**
 * A generation HAProxy refuses (here a Secret whose key is not its certificate's, committed
 * without the check a write makes, as a Secret stored before that check existed): the init
 * container does not write it, and the following agent reports it with the object to blame and
 * goes on to the next generation.
 */
describe('a generation that haproxy -c refuses', () => {
  const server = harness()
  const shop = fixtureCertificate('shop.example.com')
  const goodSecret = tlsSecret('shop-tls', shop.certPem, shop.keyPem, 'shop')
  const badSecret = tlsSecret('shop-tls', shop.certPem, fixtureCertificate('apps.example.com').keyPem, 'shop')
  let root: string
  let dir: string
  let web: NamedBackend
  let http: ServerType
  let haproxy: MasterWorker | undefined
  let options: { httpBind: string; httpsBind: string }
  let token: string
  let httpPort: number
  const modified = (objects: unknown[]) => objects.map((object) => ({ type: 'MODIFIED' as const, object: object as Record<string, unknown> }))
  /** A commit without the write's checks. */
  const commitUnchecked = (...objects: unknown[]) => commitEvents({ store: server.store, cluster: 'edge', options, context: coldContext() }, modified(objects))
  const send = async (...objects: unknown[]) =>
    (await (await server.events('edge', token, modified(objects))).json()) as { generation: number; manifest: string; rejected: unknown[] }
  const source = () => server.sourceFor('edge', token)
  const once = () =>
    hapedge(['agent', '--source', `http://127.0.0.1:${(http.address() as AddressInfo).port}`, '--cluster', 'edge', '--token', token, '--dir', dir, '--once'])
  const slice = (namespace: string) => ({
    ...endpointSlice('web', [web.host], [{ port: web.port }]),
    metadata: { name: 'web-1', namespace, labels: { 'kubernetes.io/service-name': 'web' } },
  })
  const site = (namespace: string, host: string, tls?: string) =>
    ingress({
      name: 'site',
      namespace,
      annotations: { 'hapedge.io/ssl-redirect': 'false' },
      rules: [{ host, paths: [{ service: 'web' }] }],
      ...(tls ? { tls: [{ hosts: [host], secretName: tls }] } : {}),
    })

  beforeAll(async () => {
    if (!haproxyAvailable()) throw new Error('HAProxy binary not found; set HAPROXY_BIN or install haproxy')
    process.env.HAPROXY_BIN = haproxyBinary
    root = await makeTempDir('hapedge-agent-refused')
    dir = join(root, 'haproxy')
    await mkdir(dir)
    web = await startNamedBackend({ name: 'web', host: '127.0.0.31' })
    httpPort = await freePort()
    options = { httpBind: `127.0.0.1:${httpPort}`, httpsBind: `127.0.0.1:${await freePort()}` }
    token = await server.register('edge', options)
    http = serve({ fetch: server.app.fetch, hostname: '127.0.0.1', port: 0 })
    await new Promise((resolve) => http.once('listening', resolve))
  })
  afterAll(async () => {
    await haproxy?.stop()
    http?.close()
    await web?.close()
    if (root) await removeTempDir(root)
  })

  it('is not made current by hapedge agent --once, which exits 1 saying why and whom to blame; the next generation is written', async () => {
    await commitUnchecked(service('web', [{ port: 80 }], 'shop'), slice('shop'), site('shop', 'shop.test', 'shop-tls'), badSecret)
    const refused = await once()
    expect(refused.code, refused.stderr).toBe(1)
    expect(refused.stderr).toMatch(
      /^hapedge agent: haproxy -c refused generation 1 \([0-9a-f]{12}\), blaming Secret shop\/shop-tls; no generation is current:\n.*inconsistencies between private key and certificate/m,
    )
    await expect(readlink(join(dir, 'current'))).rejects.toThrow('ENOENT')

    expect(await send(goodSecret)).toMatchObject({ generation: 2, rejected: [] })
    const written = await once()
    expect(written, written.stderr).toMatchObject({ code: 0, stdout: expect.stringMatching(/^generation 2 /) })
    const check = await haproxyCheck(join(dir, 'current'))
    expect(check.ok, check.output).toBe(true)
  }, 60_000)

  it('is reported by the following agent, blaming the object, not tried again, and the next generations are still tried', async () => {
    const sockets = { dir, statsSocket: join(root, 'stats.sock'), masterSocket: join(root, 'master.sock'), binary: haproxyBinary }
    const control = await haproxyControl(sockets)
    haproxy = await startMasterWorker({ masterSocket: sockets.masterSocket, configs: haproxyConfigs(dir), cwd: dir, binary: haproxyBinary }, [httpPort])
    const calls: string[] = []
    const counting: HaproxyControl = {
      applyRuntime: (plan: AgentPlan, files, at) => (calls.push('runtime'), control.applyRuntime(plan, files, at)),
      checkedReload: (at) => (calls.push('reload'), control.checkedReload(at)),
    }
    const agent = new Agent(source(), dir, coldContext(), counting, statusReporter(source(), 'haproxy-0'))
    const running = await readlink(join(dir, 'current'))
    expect(await agent.sync()).toMatchObject({ lastError: null })

    await commitUnchecked(badSecret)
    const refusal = /^haproxy -c refused generation 3 \([0-9a-f]{12}\), blaming Secret shop\/shop-tls; the files before it stay current:\n/
    expect((await agent.sync()).lastError).toMatch(refusal)
    expect(await readlink(join(dir, 'current'))).toBe(running)
    expect(answeredBy(await request(`http://127.0.0.1:${httpPort}/`, { headers: { host: 'shop.test' } }))).toBe('web')
    // The function's view of this pod says so too.
    await agent.reported()
    const agents = (await (await server.call('GET', '/v1/clusters/edge/agents', token)).json()) as { agents: { pod: string; lastError: string | null }[] }
    expect(agents.agents).toEqual([expect.objectContaining({ pod: 'haproxy-0', lastError: expect.stringMatching(refusal) })])

    // Asked again while HEAD still names it: nothing is tried.
    const tried = calls.length
    expect((await agent.sync()).lastError).toMatch(refusal)
    expect(calls.length).toBe(tried)

    // A harmless Ingress in another namespace is a new generation, so it is tried; the stored Secret is still to blame.
    await send(service('web', [{ port: 80 }], 'other'), slice('other'), site('other', 'other.test'))
    expect((await agent.sync()).lastError).toMatch(/^haproxy -c refused generation 4 \([0-9a-f]{12}\), blaming Secret shop\/shop-tls;/)
    expect(calls.length).toBeGreaterThan(tried)

    // Once the Secret is mended, the next generation is taken with everything since.
    const mended = await send(goodSecret)
    expect(await agent.sync()).toMatchObject({ generation: mended.generation, manifest: mended.manifest, lastError: null })
    expect(answeredBy(await request(`http://127.0.0.1:${httpPort}/`, { headers: { host: 'other.test' } }))).toBe('web')
  }, 60_000)
})
