import { X509Certificate } from 'node:crypto'
import { rm, writeFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:net'
import { join } from 'node:path'
import { connect as tlsConnect } from 'node:tls'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fullRebuild } from '../../core/render/full-rebuild.ts'
import { LiveCluster } from '../../core/incremental/live-cluster.ts'
import { planFromFiles } from '../../core/plan/plan-from-files.ts'
import type { WatchEvent } from '../../core/incremental/watch-event.ts'
import { haproxySocket, type HaproxySocket } from '../../processes/agent/haproxy-socket.ts'
import { CheckRefused, masterReload, type MasterReloadOptions } from '../../processes/agent/master-reload.ts'
import { loadedNames, type LoadedNames } from '../../processes/agent/loaded-files.ts'
import { applyAtRuntime, type RuntimeApplied } from '../../processes/agent/runtime-commands.ts'
import { parseShowProc } from '../../processes/agent/show-proc.ts'
import { writeRendered } from '../../functions/adapters/generation-files/write-rendered.ts'
import { makeCertificate, type Certificate } from '../support/certificates.ts'
import { freePort } from '../support/free-port.ts'
import { haproxyAvailable, haproxyBinary } from '../support/haproxy.ts'
import { request } from '../support/http-client.ts'
import { startNamedBackend, type NamedBackend } from '../support/named-backends.ts'
import { endpointSlice, ingress, service, tlsSecret, type PathSpec } from '../support/objects.ts'
import { makeTempDir, removeTempDir } from '../support/temp-dir.ts'
import { answeredBy } from './serve-cluster.ts'
import { startMasterWorker, type MasterWorker } from '../support/master-worker.ts'

/**
 * The agent's two ways to apply a generation, against HAProxy 2.6 in master-worker mode
 * (`haproxy -W -S master.sock`, an admin stats socket): the runtime API for the plans the engine
 * (LiveCluster) makes without a reload, and a checked reload through the master CLI otherwise.
 * Each generation's files are written first, as the agent does, so a reload loads what runs.
 */

const added = (object: unknown): WatchEvent => ({ type: 'ADDED', object: object as Record<string, unknown> })
const modified = (object: unknown): WatchEvent => ({ type: 'MODIFIED', object: object as Record<string, unknown> })
const NO_REDIRECT = { 'hapedge.io/ssl-redirect': 'false' }
const shopIngress = (paths: PathSpec[]) =>
  ingress({ name: 'shop', annotations: NO_REDIRECT, tls: [{ hosts: ['shop.test'], secretName: 'shop-tls' }], rules: [{ host: 'shop.test', paths }] })

describe('the agent applies generations to HAProxy 2.6', () => {
  let root: string
  let conf: string
  let haproxy: MasterWorker
  let stats: HaproxySocket
  let reload: MasterReloadOptions
  let live: LiveCluster
  let httpPort: number
  let httpsPort: number
  let web: NamedBackend[] = []
  let others: Record<'api' | 'fresh', NamedBackend>
  let certs: Record<'first' | 'second', Certificate>
  let rebuiltFiles: ReadonlyMap<string, string>

  const get = (host: string, path: string) => request(`http://127.0.0.1:${httpPort}${path}`, { headers: { host } })
  const workers = async () => parseShowProc(await haproxySocket({ path: join(root, 'master.sock') }).run('show proc')).workers.map((worker) => worker.pid)
  const webSlice = (count: number) =>
    endpointSlice(
      'web',
      web.slice(0, count).map((backend) => backend.host),
      [{ port: web[0]!.port }],
    )

  /** One change through the engine: its files written, and applied at runtime as the agent plans it from the files (through `socket`, remembering `loaded`). */
  async function atRuntime(events: WatchEvent[], through: { socket?: HaproxySocket; loaded?: LoadedNames } = {}): Promise<RuntimeApplied> {
    const before = live.files()
    const { plan } = live.apply(events)
    expect(plan, 'a change the runtime API can take').toMatchObject({ reload: false, reasons: [] })
    const files = live.files()
    await writeRendered(conf, files)
    return applyAtRuntime(through.socket ?? stats, planFromFiles(before, files), files, through.loaded ? { loaded: through.loaded } : {})
  }

  /** Each map HAProxy holds, entry for entry, equals the file on disk (in any order: its maps match by index trees, not by order). */
  async function expectLiveMapsEqualFiles(): Promise<void> {
    const files = live.files()
    for (const map of ['maps/hosts.map', 'maps/exact.map', 'maps/prefix.map', 'maps/redirect.map', 'maps/default.map']) {
      const held = (await stats.run(`show map ${map}`))
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => line.slice(line.indexOf(' ') + 1))
      const file = (files.get(map) ?? '').split('\n').filter((line) => line !== '')
      expect(held.sort(), map).toEqual(file.sort())
    }
  }

  /** Requests the routes one after another until stopped: how many it sent, and every answer that was not from the expected backend. */
  function steadyClient(routes: readonly [string, string][]): { stop(): Promise<{ requests: number; wrong: string[] }> } {
    let running = true
    let requests = 0
    const wrong: string[] = []
    const loop = (async () => {
      while (running) {
        for (const [path, backend] of routes) {
          const answer = answeredBy(await get('shop.test', path))
          requests++
          if (answer !== backend) wrong.push(`${path}: ${answer}, not ${backend}`)
        }
      }
    })()
    return {
      async stop() {
        running = false
        await loop
        return { requests, wrong }
      },
    }
  }

  async function answers(host: string, path: string, times: number): Promise<string[]> {
    const seen = new Set<string>()
    for (let i = 0; i < times; i++) seen.add(answeredBy(await get(host, path)))
    return [...seen].sort()
  }

  beforeAll(async () => {
    if (!haproxyAvailable()) throw new Error('HAProxy binary not found; set HAPROXY_BIN or install haproxy')
    root = await makeTempDir('hapedge-agent')
    conf = join(root, 'conf')
    const first = await startNamedBackend({ name: 'web-1', host: '127.0.0.11' })
    web = [first, ...(await Promise.all([2, 3, 4, 5].map((n) => startNamedBackend({ name: `web-${n}`, host: `127.0.0.${10 + n}`, port: first.port }))))]
    const [api, fresh] = await Promise.all(['api', 'fresh'].map((name) => startNamedBackend({ name })))
    others = { api: api!, fresh: fresh! }
    const [one, two] = await Promise.all(['first', 'second'].map((name) => makeCertificate({ dir: root, hosts: ['shop.test'], name })))
    certs = { first: one!, second: two! }
    ;[httpPort, httpsPort] = [await freePort(), await freePort()]

    const options = { httpBind: `127.0.0.1:${httpPort}`, httpsBind: `127.0.0.1:${httpsPort}` }
    const objects = [
      service('web'),
      webSlice(1),
      service('api'),
      endpointSlice('api', [api!.host], [{ port: api!.port }]),
      tlsSecret('shop-tls', certs.first.certPem, certs.first.keyPem),
      shopIngress([{ path: '/', service: 'web' }]),
      ingress({ name: 'api', rules: [{ host: 'api.test', paths: [{ path: '/', service: 'api' }] }] }),
      // Backend settings: web's routes here go to a backend of its own (a variant), whose slots move at runtime as the Service's do.
      ingress({ name: 'least', annotations: { 'nginx.org/lb-method': 'least_conn' }, rules: [{ host: 'least.test', paths: [{ path: '/', service: 'web' }] }] }),
    ]
    const rebuilt = fullRebuild(objects, options)
    rebuiltFiles = rebuilt.files
    await writeRendered(conf, rebuilt.layout)
    live = new LiveCluster(options)
    live.apply(objects.map(added))

    // The agent's own global section: the admin stats socket the runtime API needs.
    const agentConfig = join(root, 'agent.cfg')
    await writeFile(agentConfig, `global\n    stats socket ${join(root, 'admin.sock')} mode 600 level admin\n`)
    reload = { masterSocket: join(root, 'master.sock'), configs: [agentConfig, conf], cwd: conf, binary: haproxyBinary, timeoutMs: 15_000 }
    haproxy = await startMasterWorker(reload, [httpPort, httpsPort])
    stats = haproxySocket({ path: join(root, 'admin.sock') })
  })

  afterAll(async () => {
    await haproxy?.stop()
    await Promise.all([...web, ...Object.values(others ?? {})].map((backend) => backend.close()))
    if (root) await removeTempDir(root)
  })

  it('starts from the full rebuild, which the engine reproduces', async () => {
    expect(live.files()).toEqual(rebuiltFiles)
    expect(answeredBy(await get('shop.test', '/api/orders'))).toBe('web-1')
  })

  describe('runtime API', () => {
    it('adds a path entry by entry to a map that keeps its other entries, and swaps the map it fills (prepare, add, commit), with the same worker', async () => {
      const before = await workers()
      const applied = await atRuntime([
        modified(
          shopIngress([
            { path: '/', service: 'web' },
            { path: '/api', service: 'api' },
          ]),
        ),
      ])
      // prefix.map keeps shop.test/ and api.test/; exact.map held nothing, so its one entry is the whole map.
      expect(applied.maps.map(({ name, how }) => `${name} ${how}`).sort()).toEqual(['maps/exact.map swap', 'maps/prefix.map entries'])
      expect(applied.commands).toEqual(['add map maps/prefix.map', 'prepare map maps/exact.map', 'add map @1 maps/exact.map', 'commit map @1 maps/exact.map'])
      const [exact, prefix] = await stats.runAll(['show map maps/exact.map', 'show map maps/prefix.map'])
      expect(exact).toMatch(/ shop\.test\/api default_api_80\n/)
      expect(prefix).toMatch(/ shop\.test\/api\/ default_api_80\n/)
      expect(answeredBy(await get('shop.test', '/api/orders'))).toBe('api')
      expect(answeredBy(await get('shop.test', '/apiary'))).toBe('web-1')
      expect(await workers()).toEqual(before)
    })

    it('adds many entries in several payloads below the CLI buffer, and swaps the map when most of it goes', async () => {
      const many = Array.from(
        { length: 600 },
        (_, i): PathSpec => ({ path: `/catalogue/item-${String(i).padStart(4, '0')}`, pathType: 'Exact', service: 'api' }),
      )
      const applied = await atRuntime([modified(shopIngress([{ path: '/', service: 'web' }, { path: '/api', service: 'api' }, ...many]))])
      expect(applied.maps.find((map) => map.name === 'maps/exact.map')).toMatchObject({ how: 'entries', changes: 600, entries: 601 })
      expect(applied.commands.filter((command) => command === 'add map maps/exact.map').length).toBeGreaterThan(2)
      expect(answeredBy(await get('shop.test', '/catalogue/item-0599'))).toBe('api')
      expect(answeredBy(await get('shop.test', '/catalogue/item-0600'))).toBe('web-1')
      const shrunk = await atRuntime([
        modified(
          shopIngress([
            { path: '/', service: 'web' },
            { path: '/api', service: 'api' },
          ]),
        ),
      ])
      expect(shrunk.maps.find((map) => map.name === 'maps/exact.map')).toMatchObject({ how: 'swap', changes: 600, entries: 1 })
      expect(answeredBy(await get('shop.test', '/catalogue/item-0599'))).toBe('web-1')
      await expectLiveMapsEqualFiles()
    })

    it('asks HAProxy which maps it loaded once, not before every change, until it is told to forget', async () => {
      const asked: string[] = []
      const counted: HaproxySocket = { ...stats, run: (command) => (asked.push(command), stats.run(command)) }
      const loaded = loadedNames(counted)
      const shop = (...extra: string[]) =>
        modified(shopIngress([{ path: '/', service: 'web' }, { path: '/api', service: 'api' }, ...extra.map((path) => ({ path, service: 'api' }))]))
      await atRuntime([shop('/one')], { socket: counted, loaded })
      await atRuntime([shop('/one', '/two')], { socket: counted, loaded })
      expect(asked.filter((command) => command === 'show map')).toHaveLength(1)
      expect(answeredBy(await get('shop.test', '/two/x'))).toBe('api')
      loaded.forget()
      await atRuntime([shop()], { socket: counted, loaded })
      expect(asked.filter((command) => command === 'show map')).toHaveLength(2)
      expect(answeredBy(await get('shop.test', '/two/x'))).toBe('web-1')
      await expectLiveMapsEqualFiles()
    })

    it('changes a large map entry by entry (a handful of commands, the live map equal to the file after) while a steady client finds every route that stays, and swaps it for a large change', async () => {
      const item = (i: number) => `/catalogue/item-${String(i).padStart(4, '0')}`
      // 2,000 Exact paths on shop.test, in rules of 500 (an Ingress rule lists at most 1,000).
      const catalogue = (service: (i: number) => string | undefined) => {
        const paths = Array.from({ length: 2_000 }, (_, i): PathSpec | undefined => {
          const name = service(i)
          return name ? { path: item(i), pathType: 'Exact', service: name } : undefined
        }).filter((path) => path !== undefined)
        const rules = Array.from({ length: Math.ceil(paths.length / 500) }, (_, n) => ({ host: 'shop.test', paths: paths.slice(n * 500, n * 500 + 500) }))
        return ingress({ name: 'catalogue', annotations: NO_REDIRECT, rules })
      }
      const shop = (extra: PathSpec[] = []) => shopIngress([{ path: '/', service: 'web' }, { path: '/api', service: 'api' }, ...extra])
      await atRuntime([added(catalogue(() => 'api')), modified(shop())])
      // Routes there before, during and after every change below, and the backend each answers from.
      const steady: [string, string][] = [
        [item(1_500), 'api'],
        [item(1_999), 'api'],
        ['/api/orders', 'api'],
        ['/about', 'web-1'],
      ]
      const client = steadyClient(steady)
      try {
        const grown = await atRuntime([modified(shop([{ path: '/fresh', service: 'api' }]))])
        expect(grown.maps.map(({ name, how, changes }) => `${name} ${how} ${changes}`).sort()).toEqual([
          'maps/exact.map entries 1',
          'maps/prefix.map entries 1',
        ])
        expect(grown.commands).toEqual(['add map maps/exact.map', 'add map maps/prefix.map'])
        expect(answeredBy(await get('shop.test', '/fresh/x'))).toBe('api')

        const changed = await atRuntime([modified(catalogue((i) => (i === 5 ? 'web' : i === 6 ? undefined : 'api')))])
        expect(changed.commands).toEqual([`set map maps/exact.map shop.test${item(5)} default_web_80`, `del map maps/exact.map shop.test${item(6)}`])
        expect(answeredBy(await get('shop.test', item(5)))).toBe('web-1')
        expect(answeredBy(await get('shop.test', item(6)))).toBe('web-1')
        await expectLiveMapsEqualFiles()

        // 298 values set and item 6 added again: past the lookups a map takes entry by entry.
        const large = await atRuntime([modified(catalogue((i) => (i < 300 ? 'web' : 'api')))])
        expect(large.maps.find((map) => map.name === 'maps/exact.map')).toMatchObject({ how: 'swap', changes: 299 })
        expect(large.commands).toEqual(expect.arrayContaining(['prepare map maps/exact.map', expect.stringMatching(/^commit map @\d+ maps\/exact\.map$/)]))
        expect(answeredBy(await get('shop.test', item(299)))).toBe('web-1')
        expect(answeredBy(await get('shop.test', item(300)))).toBe('api')
        await expectLiveMapsEqualFiles()
      } finally {
        const { requests, wrong } = await client.stop()
        expect(requests).toBeGreaterThan(steady.length)
        expect(wrong).toEqual([])
      }
      await atRuntime([{ type: 'DELETED', object: catalogue(() => 'api') as Record<string, unknown> }, modified(shop())])
      await expectLiveMapsEqualFiles()
    })

    it('moves server slots as endpoints scale up beyond the slots, down, and to zero (503)', async () => {
      const names = (count: number) => web.slice(0, count).map((backend) => backend.name)
      await atRuntime([modified(webSlice(2))])
      expect(await answers('shop.test', '/', 6)).toEqual(names(2))

      const grown = await atRuntime([modified(webSlice(5))])
      const serviceSlots = grown.servers.filter((change) => change.backend === 'default_web_80')
      expect(grown.servers.filter((change) => change.backend !== 'default_web_80')).toHaveLength(serviceSlots.length)
      expect(serviceSlots.map((change) => `${change.op} ${change.server} ${change.state}`)).toEqual([
        'add s3 ready',
        'add s4 ready',
        'add s5 ready',
        'add s6 maint',
        'add s7 maint',
        'add s8 maint',
      ])
      expect(await answers('shop.test', '/', 15)).toEqual(names(5))
      expect(await answers('least.test', '/', 15)).toEqual(names(5))

      const shrunk = await atRuntime([modified(webSlice(1))])
      expect(shrunk.servers.filter((change) => change.op === 'del' && change.backend === 'default_web_80').map((change) => change.server)).toEqual([
        's3',
        's4',
        's5',
        's6',
        's7',
        's8',
      ])
      expect(await answers('least.test', '/', 6)).toEqual(names(1))
      expect(await answers('shop.test', '/', 6)).toEqual(names(1))

      await atRuntime([modified(webSlice(0))])
      expect(await answers('shop.test', '/', 3)).toEqual(['HTTP 503'])
      await atRuntime([modified(webSlice(1))])
      expect(await answers('shop.test', '/', 3)).toEqual(['web-1'])
      expect(await answers('least.test', '/', 3)).toEqual(['web-1'])
    })

    it('rotates a certificate in place (set ssl cert, commit ssl cert)', async () => {
      expect(await servedSerial(httpsPort, 'shop.test')).toBe(new X509Certificate(certs.first.certPem).serialNumber)
      const applied = await atRuntime([modified(tlsSecret('shop-tls', certs.second.certPem, certs.second.keyPem))])
      expect(applied.certificates).toEqual(['tls/default_shop-tls.pem'])
      expect(await servedSerial(httpsPort, 'shop.test')).toBe(new X509Certificate(certs.second.certPem).serialNumber)
    })

    it('stops at the first refused step and names it', async () => {
      const plan = {
        reload: false,
        reasons: [],
        maps: [],
        certificates: [],
        servers: [{ op: 'set' as const, backend: 'default_web_80', server: 's99', address: '127.0.0.1:1', state: 'maint' as const }],
        mapUpdates: [],
      }
      await expect(applyAtRuntime(stats, plan, new Map())).rejects.toThrow(/stopped at `set server default_web_80\/s99 state maint`: .*No such server/)
    })
  })

  describe('checked reload through the master CLI', () => {
    it('picks up a new backend with a new worker, keeping what the runtime API set', async () => {
      const { plan } = live.apply(
        [
          service('fresh'),
          endpointSlice('fresh', [others.fresh.host], [{ port: others.fresh.port }]),
          ingress({ name: 'fresh', rules: [{ host: 'fresh.test', paths: [{ path: '/', service: 'fresh' }] }] }),
        ].map(added),
      )
      expect(plan.reload).toBe(true)
      await writeRendered(conf, live.files())
      const before = await workers()
      const reloaded = await masterReload(reload)
      expect(reloaded.previous).toEqual(before)
      expect(before).not.toContain(reloaded.workers[0])
      expect(await workers()).toEqual(reloaded.workers)
      expect(answeredBy(await get('fresh.test', '/'))).toBe('fresh')
      expect(answeredBy(await get('shop.test', '/api/x'))).toBe('api')
      expect(await servedSerial(httpsPort, 'shop.test')).toBe(new X509Certificate(certs.second.certPem).serialNumber)
    })

    it('refuses files HAProxy cannot load with haproxy -c’s words, and the old worker keeps serving', async () => {
      const broken = join(conf, '15-broken.cfg')
      await writeFile(broken, 'backend broken\n    no-such-keyword\n')
      const before = parseShowProc(await haproxySocket({ path: reload.masterSocket }).run('show proc'))
      try {
        const error = await masterReload(reload).catch((caught: unknown) => caught)
        expect(error).toBeInstanceOf(CheckRefused)
        expect(error).toMatchObject({ stage: 'check', message: expect.stringContaining('no-such-keyword') })
      } finally {
        await rm(broken)
      }
      const after = parseShowProc(await haproxySocket({ path: reload.masterSocket }).run('show proc'))
      // The master tried the files once (no `haproxy -c` before it), failed, and left the worker as it was.
      expect(after.master.failed).toBe((before.master.failed ?? 0) + 1)
      expect(after.workers.map((worker) => worker.pid)).toEqual(before.workers.map((worker) => worker.pid))
      expect(answeredBy(await get('fresh.test', '/'))).toBe('fresh')
    })

    it('reports a reload that passed the check but failed to load (show proc counts it), and the old worker keeps serving', async () => {
      const busy = await holdPort()
      const extra = join(conf, '15-busy.cfg')
      await writeFile(extra, `frontend busy\n    bind 127.0.0.1:${busy.port}\n`)
      const before = await workers()
      try {
        const error = await masterReload(reload).catch((caught: unknown) => caught)
        expect(error).toMatchObject({ stage: 'confirm', message: expect.stringMatching(/failed reloads 1 → 2/) })
      } finally {
        await rm(extra)
        await busy.close()
      }
      expect(await workers()).toEqual(before)
      expect(answeredBy(await get('fresh.test', '/'))).toBe('fresh')
      // Once the files load again, so does the next reload.
      expect((await masterReload(reload)).previous).toEqual(before)
      expect(answeredBy(await get('fresh.test', '/'))).toBe('fresh')
    })
  })
})

/** The serial number of the certificate HAProxy presents for `servername`. */
function servedSerial(port: number, servername: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = tlsConnect({ host: '127.0.0.1', port, servername, rejectUnauthorized: false }, () => {
      resolve(socket.getPeerCertificate().serialNumber)
      socket.end()
    })
    socket.once('error', reject)
  })
}

/** A plain listener on a free port, without SO_REUSEPORT, so HAProxy cannot bind it too. */
async function holdPort(): Promise<{ port: number; close(): Promise<void> }> {
  const port = await freePort()
  const server: Server = createServer((socket) => socket.destroy())
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, '127.0.0.1', resolve))
  return { port, close: () => new Promise((resolve) => server.close(() => resolve())) }
}
