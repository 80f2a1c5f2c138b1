import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sha256Text } from '../../core/hash.ts'
import { NodeCache } from '../../core/tree/node-cache.ts'
import { Agent } from '../../functions/agent/agent.ts'
import { haproxyConfigs, haproxyControl } from '../../functions/agent/haproxy-control.ts'
import { seededRandom } from '../../bench/random.ts'
import { makeCertificate, type Certificate } from '../support/certificates.ts'
import { freePort } from '../support/free-port.ts'
import { haproxyAvailable, haproxyBinary, startHaproxy, type RunningHaproxy } from '../support/haproxy.ts'
import { request } from '../support/http-client.ts'
import { startMasterWorker, type MasterWorker } from '../support/master-worker.ts'
import { startNamedBackend, type NamedBackend } from '../support/named-backends.ts'
import { endpointSlice, ingress, service, tlsSecret } from '../support/objects.ts'
import { hapedge } from '../support/run-cli.ts'
import { startServe, type Served } from '../support/serve-process.ts'
import { makeTempDir, removeTempDir } from '../support/temp-dir.ts'
import { answeredBy } from './serve-cluster.ts'

/**
 * 200 mixed changes while clients keep asking: the real `hapedge serve` (local disk), the agent,
 * HAProxy 2.6 in master-worker mode and loopback backends. Every answer must come from a backend
 * that was valid for its route at that moment (503 only for a route whose Service has no
 * endpoints), and at the end a fresh HAProxy started on a full `hapedge render` of the final
 * objects must serve the same routes.
 */

interface Probe {
  host: string
  path: string
}

interface World {
  endpoints: Map<string, string[]>
  /** Paths of the shop Ingress, `/pN` → Service. */
  paths: Map<string, string>
  docs: boolean
}

interface Answer {
  probe: Probe
  started: number
  ended: number
  answer: string
}

const CHANGES = 200
const NO_REDIRECT = { 'hapedge.io/ssl-redirect': 'false' }

function expected(world: World, probe: Probe): string[] {
  const serviceFor = (): string | undefined => {
    if (probe.host === 'docs.test') return world.docs ? 'api' : undefined
    if (probe.host === 'tls.test') return 'web'
    const prefix = /^(\/p\d+)\//.exec(probe.path)?.[1]
    return (prefix && world.paths.get(prefix)) ?? 'web'
  }
  const name = serviceFor()
  if (!name) return ['HTTP 404']
  const names = world.endpoints.get(name) ?? []
  return names.length ? names : ['HTTP 503']
}

describe('the agent through 200 changes under load', () => {
  let root: string
  let served: Served
  let haproxy: MasterWorker
  let fresh: RunningHaproxy | undefined
  let httpPort: number
  let httpsPort: number
  let token: string
  const backends = new Map<string, NamedBackend>()
  let certs: Certificate[]

  const pools: Record<string, string[]> = { web: ['web-1', 'web-2', 'web-3', 'web-4'], api: ['api-1', 'api-2'], extra: ['extra-1'], more: ['more-1'] }
  const slice = (name: string, endpoints: string[]) =>
    endpointSlice(name, endpoints.map((endpoint) => backends.get(endpoint)!.host), [{ port: backends.get(pools[name]![0]!)!.port }])
  const shop = (world: World) =>
    ingress({ name: 'shop', annotations: NO_REDIRECT, rules: [{ host: 'shop.test', paths: [{ path: '/', service: 'web' }, ...[...world.paths].map(([path, name]) => ({ path, service: name }))] }] })
  const docs = ingress({ name: 'docs', annotations: NO_REDIRECT, rules: [{ host: 'docs.test', paths: [{ path: '/', service: 'api' }] }] })
  const secure = ingress({ name: 'secure', annotations: NO_REDIRECT, tls: [{ hosts: ['tls.test'], secretName: 'tls-cert' }], rules: [{ host: 'tls.test', paths: [{ path: '/', service: 'web' }] }] })
  const cold = () => ({ nodes: new NodeCache(), hash: sha256Text })

  async function send(events: { type: 'MODIFIED' | 'DELETED'; object: unknown }[]) {
    const response = await fetch(`${served.url}/v1/clusters/churn/events`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ events }),
    })
    if (!response.ok) throw new Error(`POST events: ${response.status} ${await response.text()}`)
  }

  const servedCertificate = async () => (await request(`https://127.0.0.1:${httpsPort}/`, { servername: 'tls.test', headers: { host: 'tls.test' } })).tlsPeer!

  beforeAll(async () => {
    if (!haproxyAvailable()) throw new Error('HAProxy binary not found; set HAPROXY_BIN or install haproxy')
    root = await makeTempDir('hapedge-churn')
    let octet = 40
    for (const [pool, names] of Object.entries(pools)) {
      const first = await startNamedBackend({ name: names[0]!, host: `127.0.0.${octet++}` })
      backends.set(first.name, first)
      for (const name of names.slice(1)) backends.set(name, await startNamedBackend({ name, host: `127.0.0.${octet++}`, port: first.port }))
      void pool
    }
    certs = [await makeCertificate({ dir: root, hosts: ['tls.test'], name: 'first' }), await makeCertificate({ dir: root, hosts: ['tls.test', 'rotated.tls.test'], name: 'second' })]
    served = await startServe(['--data', join(root, 'data')])
    httpPort = await freePort()
    httpsPort = await freePort()
    const registered = await fetch(`${served.url}/v1/clusters`, {
      method: 'POST',
      headers: { authorization: `Bearer ${served.adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ id: 'churn', httpBind: `127.0.0.1:${httpPort}`, httpsBind: `127.0.0.1:${httpsPort}` }),
    })
    token = ((await registered.json()) as { token: string }).token
  }, 60_000)

  afterAll(async () => {
    await fresh?.stop()
    await haproxy?.stop()
    await served?.stop()
    for (const backend of backends.values()) await backend.close()
    await removeTempDir(root)
  })

  it('answers every request from a backend valid at that moment, and ends serving what a fresh render serves', async () => {
    const world: World = { endpoints: new Map([['web', ['web-1']], ['api', ['api-1']]]), paths: new Map(), docs: true }
    const live = new Map<string, unknown>()
    const put = (object: { kind: string; metadata: { name: string } }) => (live.set(`${object.kind}/${object.metadata.name}`, object), { type: 'MODIFIED' as const, object })
    await send([put(service('web')), put(slice('web', ['web-1'])), put(service('api')), put(slice('api', ['api-1'])), put(shop(world)), put(docs), put(tlsSecret('tls-cert', certs[0]!.certPem, certs[0]!.keyPem)), put(secure)])

    const source = { source: served.url, cluster: 'churn', token }
    const dir = join(root, 'haproxy')
    await new Agent(source, dir, cold()).sync()
    const sockets = { dir, statsSocket: join(root, 'stats.sock'), masterSocket: join(root, 'master.sock'), binary: haproxyBinary }
    const control = await haproxyControl(sockets)
    haproxy = await startMasterWorker({ masterSocket: sockets.masterSocket, configs: haproxyConfigs(dir), cwd: dir, binary: haproxyBinary }, [httpPort])
    let agent = new Agent(source, dir, cold(), control)

    // The states the cluster goes through, each possibly live from its change's post to the next change's convergence.
    const states: { world: World; posted: number; converged: number }[] = [{ world: structuredClone(world), posted: 0, converged: 0 }]
    const probes: Probe[] = [{ host: 'shop.test', path: '/' }, { host: 'docs.test', path: '/' }, ...Array.from({ length: 12 }, (_, n) => ({ host: 'shop.test', path: `/p${n}/x` }))]
    const answers: Answer[] = []
    let loading = true
    const client = async (offset: number) => {
      for (let i = offset; loading; i++) {
        const probe = probes[i % probes.length]!
        const started = performance.now()
        let answer: string
        try {
          answer = answeredBy(await request(`http://127.0.0.1:${httpPort}${probe.path}`, { headers: { host: probe.host }, timeoutMs: 5_000 }))
        } catch (error) {
          answer = `ERROR ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`
        }
        answers.push({ probe, started, ended: performance.now(), answer })
      }
    }
    const clients = [0, 5, 9].map(client)

    const random = seededRandom(2026)
    const applied = { runtime: 0, reload: 0 }
    let serviceAdds = 0
    for (let n = 1; n <= CHANGES; n++) {
      const events: { type: 'MODIFIED' | 'DELETED'; object: unknown }[] = []
      const roll = random.next()
      if (n === 60 || n === 130) {
        const name = ++serviceAdds === 1 ? 'extra' : 'more'
        world.endpoints.set(name, pools[name]!)
        world.paths.set(`/p${10 + serviceAdds}`, name)
        events.push(put(service(name)), put(slice(name, pools[name]!)), put(shop(world)))
      } else if (n === 90 || n === 170) {
        const cert = certs[n === 90 ? 1 : 0]!
        events.push(put(tlsSecret('tls-cert', cert.certPem, cert.keyPem)))
      } else if (n === 185) {
        world.docs = false
        live.delete('Ingress/docs')
        events.push({ type: 'DELETED', object: docs })
      } else if (roll < 0.5) {
        const pool = roll < 0.35 ? 'web' : 'api'
        const count = random.int(0, pools[pool]!.length)
        const chosen = [...pools[pool]!].sort(() => random.next() - 0.5).slice(0, count).sort()
        world.endpoints.set(pool, chosen)
        events.push(put(slice(pool, chosen)))
      } else if (roll < 0.8 || world.paths.size === 0) {
        world.paths.set(`/p${random.int(0, 9)}`, random.next() < 0.5 ? 'web' : 'api')
        events.push(put(shop(world)))
      } else {
        const removable = [...world.paths.keys()].filter((path) => Number(path.slice(2)) < 10)
        if (removable.length) world.paths.delete(removable[random.int(0, removable.length - 1)]!)
        events.push(put(shop(world)))
      }
      const posted = performance.now()
      await send(events)
      if (n === 100) agent = new Agent(source, dir, cold(), control) // killed and restarted: a cold cache, the files on disk
      const status = await agent.sync()
      expect(status.lastError, `change ${n}`).toBeNull()
      if (status.applied === 'runtime' || status.applied === 'reload') applied[status.applied]++
      if (n === 90) expect((await servedCertificate()).subjectAltName, 'the rotated certificate').toMatch(/rotated\.tls\.test/)
      states.push({ world: structuredClone(world), posted, converged: performance.now() })
    }
    loading = false
    await Promise.all(clients)

    const violations: string[] = []
    for (const answer of answers) {
      const valid = new Set<string>()
      states.forEach((state, j) => {
        const until = states[j + 1]?.converged ?? Number.POSITIVE_INFINITY
        if (state.posted <= answer.ended && until >= answer.started) for (const name of expected(state.world, answer.probe)) valid.add(name)
      })
      const during = states.findLastIndex((state) => state.posted <= answer.started)
      if (!valid.has(answer.answer)) violations.push(`${answer.probe.host}${answer.probe.path} during change ${during}: ${answer.answer}, valid ${[...valid].join('|')}`)
    }
    expect(answers.length).toBeGreaterThan(CHANGES)
    expect(violations.slice(0, 10)).toEqual([])
    expect(applied.runtime + applied.reload).toBe(CHANGES)
    expect(applied.runtime).toBeGreaterThan(CHANGES * 0.6)
    expect((await servedCertificate()).subjectAltName).not.toMatch(/rotated/)

    // A fresh HAProxy on a full render of the final objects serves the same routes.
    const objects = join(root, 'final.json')
    await writeFile(objects, JSON.stringify({ apiVersion: 'v1', kind: 'List', items: [...live.values()] }))
    const freshPort = await freePort()
    const rendered = await hapedge(['render', '--in', objects, '--out', join(root, 'fresh'), '--http-bind', `127.0.0.1:${freshPort}`, '--https-bind', `127.0.0.1:${await freePort()}`])
    expect(rendered.code, rendered.stderr).toBe(0)
    fresh = await startHaproxy({ dir: join(root, 'fresh'), readyPorts: [freshPort] })
    for (const probe of probes) {
      const seen = async (port: number) => {
        const names = new Set<string>()
        for (let i = 0; i < 8; i++) names.add(answeredBy(await request(`http://127.0.0.1:${port}${probe.path}`, { headers: { host: probe.host } })))
        return [...names].sort()
      }
      expect(await seen(httpPort), `${probe.host}${probe.path}`).toEqual(await seen(freshPort))
    }
    console.log(`${answers.length} requests during ${CHANGES} changes: ${applied.runtime} applied at runtime, ${applied.reload} by a reload`)
  }, 240_000)
})
