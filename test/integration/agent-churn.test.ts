import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { seededRandom } from '../../bench/random.ts'
import { makeCertificate, type Certificate } from '../support/certificates.ts'
import { freePort } from '../support/free-port.ts'
import { startEdgeStack, type EdgeStack } from '../support/edge-stack.ts'
import { startHaproxy, type RunningHaproxy } from '../support/haproxy.ts'
import { request } from '../support/http-client.ts'
import { endpointSlice, ingress, service, tlsSecret } from '../support/objects.ts'
import { hapedge } from '../support/run-cli.ts'
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
  let stack: EdgeStack
  let fresh: RunningHaproxy | undefined
  let certs: Certificate[]
  let certDir: string
  const world: World = { endpoints: new Map([['web', ['web-1']], ['api', ['api-1']]]), paths: new Map(), docs: true }
  const live = new Map<string, unknown>()
  const pools: Record<string, string[]> = { web: ['web-1', 'web-2', 'web-3', 'web-4'], api: ['api-1', 'api-2'], extra: ['extra-1'], more: ['more-1'] }
  const slice = (name: string, endpoints: string[]) =>
    endpointSlice(name, endpoints.map((endpoint) => stack.backends.get(endpoint)!.host), [{ port: stack.backends.get(pools[name]![0]!)!.port }])
  const shop = (state: World) =>
    ingress({ name: 'shop', annotations: NO_REDIRECT, rules: [{ host: 'shop.test', paths: [{ path: '/', service: 'web' }, ...[...state.paths].map(([path, name]) => ({ path, service: name }))] }] })
  const docs = ingress({ name: 'docs', annotations: NO_REDIRECT, rules: [{ host: 'docs.test', paths: [{ path: '/', service: 'api' }] }] })
  const secure = ingress({ name: 'secure', annotations: NO_REDIRECT, tls: [{ hosts: ['tls.test'], secretName: 'tls-cert' }], rules: [{ host: 'tls.test', paths: [{ path: '/', service: 'web' }] }] })
  const remember = <T extends { kind: string; metadata: { name: string } }>(object: T) => (live.set(`${object.kind}/${object.metadata.name}`, object), object)
  const put = (object: { kind: string; metadata: { name: string } }) => ({ type: 'MODIFIED' as const, object: remember(object) })
  const servedCertificate = async () => (await request(`https://127.0.0.1:${stack.httpsPort}/`, { servername: 'tls.test', headers: { host: 'tls.test' } })).tlsPeer!

  beforeAll(async () => {
    certDir = await makeTempDir('hapedge-churn-certs')
    certs = [await makeCertificate({ dir: certDir, hosts: ['tls.test'], name: 'first' }), await makeCertificate({ dir: certDir, hosts: ['tls.test', 'rotated.tls.test'], name: 'second' })]
    stack = await startEdgeStack(pools, (partial) => {
      const early = (name: string, endpoints: string[]) => endpointSlice(name, endpoints.map((endpoint) => partial.backends.get(endpoint)!.host), [{ port: partial.backends.get(pools[name]![0]!)!.port }])
      return [service('web'), early('web', ['web-1']), service('api'), early('api', ['api-1']), shop(world), docs, tlsSecret('tls-cert', certs[0]!.certPem, certs[0]!.keyPem), secure].map(remember)
    })
  }, 60_000)

  afterAll(async () => {
    await fresh?.stop()
    await stack?.stop()
    await removeTempDir(certDir)
  })

  it('answers every request from a backend valid at that moment, and ends serving what a fresh render serves', async () => {
    const { httpPort } = stack
    let agent = stack.agent()

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
      await stack.send(events)
      if (n === 100) agent = stack.agent() // killed and restarted: a cold cache, the files on disk
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
    const objects = join(stack.root, 'final.json')
    await writeFile(objects, JSON.stringify({ apiVersion: 'v1', kind: 'List', items: [...live.values()] }))
    const freshPort = await freePort()
    const rendered = await hapedge(['render', '--in', objects, '--out', join(stack.root, 'fresh'), '--http-bind', `127.0.0.1:${freshPort}`, '--https-bind', `127.0.0.1:${await freePort()}`])
    expect(rendered.code, rendered.stderr).toBe(0)
    fresh = await startHaproxy({ dir: join(stack.root, 'fresh'), readyPorts: [freshPort] })
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
