import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { seededRandom } from '../../bench/random.ts'
import { churnCluster, churnPools, expectedAnswers, makeChurnCertificates, type ChurnWorld } from '../support/churn-changes.ts'
import { freePort } from '../support/free-port.ts'
import { startEdgeStack, type EdgeStack } from '../support/edge-stack.ts'
import { startHaproxy, type RunningHaproxy } from '../support/haproxy.ts'
import { request } from '../support/http-client.ts'
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

interface Answer {
  probe: Probe
  started: number
  ended: number
  answer: string
}

const CHANGES = 200

describe('the agent through 200 changes under load', () => {
  let stack: EdgeStack
  let fresh: RunningHaproxy | undefined
  let certDir: string
  let cluster: ReturnType<typeof churnCluster>
  const servedCertificate = async () =>
    (await request(`https://127.0.0.1:${stack.httpsPort}/`, { servername: 'tls.test', headers: { host: 'tls.test' } })).tlsPeer!

  beforeAll(async () => {
    certDir = await makeTempDir('hapedge-churn-certs')
    const certs = await makeChurnCertificates(certDir)
    stack = await startEdgeStack(churnPools, ({ backends }) => (cluster = churnCluster(churnPools, backends, certs)).initial)
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
    const states: { world: ChurnWorld; posted: number; converged: number }[] = [{ world: cluster.start(), posted: 0, converged: 0 }]
    const probes: Probe[] = [
      { host: 'shop.test', path: '/' },
      { host: 'docs.test', path: '/' },
      ...Array.from({ length: 12 }, (_, n) => ({ host: 'shop.test', path: `/p${n}/x` })),
    ]
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

    const applied = { runtime: 0, reload: 0 }
    for (const { n, events, world } of cluster.changes(seededRandom(2026), CHANGES)) {
      const posted = performance.now()
      await stack.send(events)
      if (n === 100) agent = stack.agent() // killed and restarted: a cold cache, the files on disk
      const status = await agent.sync()
      expect(status.lastError, `change ${n}`).toBeNull()
      if (status.applied === 'runtime' || status.applied === 'reload') applied[status.applied]++
      if (n === 90) expect((await servedCertificate()).subjectAltName, 'the rotated certificate').toMatch(/rotated\.tls\.test/)
      states.push({ world, posted, converged: performance.now() })
    }
    loading = false
    await Promise.all(clients)

    const violations: string[] = []
    for (const answer of answers) {
      const valid = new Set<string>()
      states.forEach((state, j) => {
        const until = states[j + 1]?.converged ?? Number.POSITIVE_INFINITY
        if (state.posted <= answer.ended && until >= answer.started)
          for (const name of expectedAnswers(state.world, answer.probe.host, answer.probe.path)) valid.add(name)
      })
      const during = states.findLastIndex((state) => state.posted <= answer.started)
      if (!valid.has(answer.answer))
        violations.push(`${answer.probe.host}${answer.probe.path} during change ${during}: ${answer.answer}, valid ${[...valid].join('|')}`)
    }
    expect(answers.length).toBeGreaterThan(CHANGES)
    expect(violations.slice(0, 10)).toEqual([])
    expect(applied.runtime + applied.reload).toBe(CHANGES)
    expect(applied.runtime).toBeGreaterThan(CHANGES * 0.6)
    expect((await servedCertificate()).subjectAltName).not.toMatch(/rotated/)

    // A fresh HAProxy on a full render of the final objects serves the same routes.
    const objects = join(stack.root, 'final.json')
    await writeFile(objects, JSON.stringify({ apiVersion: 'v1', kind: 'List', items: cluster.live() }))
    const freshPort = await freePort()
    const rendered = await hapedge([
      'render',
      '--in',
      objects,
      '--out',
      join(stack.root, 'fresh'),
      '--http-bind',
      `127.0.0.1:${freshPort}`,
      '--https-bind',
      `127.0.0.1:${await freePort()}`,
    ])
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
