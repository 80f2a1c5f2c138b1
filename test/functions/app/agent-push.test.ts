import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import type { ObjectStore } from '../../../core/ports/object-store.ts'
import { clusterKeys } from '../../../core/keys/cluster-keys.ts'
import { agentKey } from '../../../core/registry/agent-report.ts'
import { AGENTS_PER_CLUSTER } from '../../../core/registry/agent-retention.ts'
import { createMemoryStore } from '../../../functions/adapters/storage/memory-store.ts'
import { PUSH_CONCURRENCY } from '../../../functions/app/services/agent-push.ts'
import { app } from '../../support/contracts/cluster-apps.ts'
import { eventually } from '../../support/eventually.ts'
import { ADMIN, harness } from './app-harness.ts'

const put = (object: unknown) => ({ type: 'MODIFIED', object })
const report = { generation: null, manifest: null, applied: null, appliedAt: null, lastError: null }

/** An agent's `--listen` address on loopback that records what it is told. */
async function listeningAgent() {
  const notified: unknown[] = []
  const server: Server = createServer((request, response) => {
    let body = ''
    request.on('data', (chunk) => (body += chunk))
    request.on('end', () => {
      notified.push({ method: request.method, path: request.url, body: JSON.parse(body || 'null') })
      response.writeHead(202).end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, notified, close: () => new Promise((resolve) => server.close(resolve)) }
}

describe('pushing new generations to agents', () => {
  const closing: (() => Promise<unknown>)[] = []
  afterEach(async () => {
    for (const close of closing.splice(0)) await close()
  })

  it('tells each agent that reported a URL on an allowed origin, once per generation', async () => {
    const { register, events, call } = harness()
    const agent = await listeningAgent()
    closing.push(agent.close)
    const token = await register('prod', { agentOrigins: ['http://127.0.0.1:*'] })
    expect((await call('POST', '/v1/clusters/prod/agents/haproxy-0', token, { ...report, notifyUrl: agent.url })).status).toBe(200)
    const committed = (await (await events('prod', token, app(1).map(put))).json()) as { generation: number; manifest: string }
    await eventually('the push', () => agent.notified.length > 0)
    expect(agent.notified).toEqual([{ method: 'POST', path: '/notify', body: { generation: committed.generation, manifest: committed.manifest } }])
    await events('prod', token, app(1).map(put))
    await events('prod', token, app(2).map(put))
    await eventually('the second push', () => agent.notified.length > 1)
    expect(agent.notified).toHaveLength(2)
  })

  it('pushes from one replica to an agent that reported to another since the first last pushed: agents are read from the store, not one process', async () => {
    const a = harness()
    const b = harness({ store: a.store })
    const agent = await listeningAgent()
    closing.push(agent.close)
    const token = await a.register('prod', { agentOrigins: ['http://127.0.0.1:*'] })
    // A pushes once while the cluster has no agent yet: what it read then must not hide the agent that reports next.
    await a.events('prod', token, app(1).map(put))
    expect((await b.call('POST', '/v1/clusters/prod/agents/haproxy-0', token, { ...report, notifyUrl: agent.url })).status).toBe(200)
    const committed = (await (await a.events('prod', token, app(2).map(put))).json()) as { generation: number; manifest: string }
    await eventually('the push from the other replica', () => agent.notified.length > 0)
    expect(agent.notified).toEqual([{ method: 'POST', path: '/notify', body: { generation: committed.generation, manifest: committed.manifest } }])
  })

  it('pushes a generation whose files another replica committed in between, back to what this replica pushed last', async () => {
    const a = harness()
    const b = harness({ store: a.store })
    const agent = await listeningAgent()
    closing.push(agent.close)
    const token = await a.register('prod', { agentOrigins: ['http://127.0.0.1:*'] })
    await a.call('POST', '/v1/clusters/prod/agents/haproxy-0', token, { ...report, notifyUrl: agent.url })
    const commit = async (replica: typeof a, events: { type: string; object: unknown }[]) => {
      const answer = (await (await replica.events('prod', token, events)).json()) as { generation: number; manifest: string }
      await eventually(`the push of generation ${answer.generation}`, () =>
        agent.notified.some((push) => (push as { body: { generation: number } }).body.generation === answer.generation),
      )
      return answer
    }
    const first = await commit(a, app(1).map(put))
    await commit(b, app(2).map(put))
    // Generation 3 has generation 1's files, so its manifest: A pushed that manifest last, yet the agents run generation 2's.
    const third = await commit(
      a,
      app(2).map((object) => ({ type: 'DELETED', object })),
    )
    expect(third).toMatchObject({ generation: 3, manifest: first.manifest })
  })

  it('lists the agents as the write begins, and lists them again at the push when that listing failed', async () => {
    const memory = createMemoryStore()
    let listings = 0
    let failing = false
    const store: ObjectStore = {
      ...memory,
      list(prefix) {
        if (!prefix.includes('/agents/')) return memory.list(prefix)
        listings++
        if (!failing) return memory.list(prefix)
        failing = false
        return (async function* () {
          yield* []
          throw new Error('the listing failed')
        })()
      },
    }
    const { register, events, call } = harness({ store })
    const agent = await listeningAgent()
    closing.push(agent.close)
    const token = await register('prod', { agentOrigins: ['http://127.0.0.1:*'] })
    await call('POST', '/v1/clusters/prod/agents/haproxy-0', token, { ...report, notifyUrl: agent.url })
    listings = 0
    await events('prod', token, app(1).map(put))
    await eventually('the push', () => agent.notified.length === 1)
    // One listing, made as the write began and handed to the push.
    expect(listings).toBe(1)
    failing = true
    await events('prod', token, app(2).map(put))
    await eventually('the push after a failed listing', () => agent.notified.length === 2)
    expect(listings).toBe(3)
  })

  it('answers an agent run that names itself with its push key, only where pushes come and the deployment has a secret to sign with', async () => {
    const secrets = { current: 'a-deployment-secret-of-enough-length-0123456789' }
    const keyIn = async (replica: ReturnType<typeof harness>, token: string, pod: string, body: Record<string, unknown>) => {
      const answer = await replica.call('POST', `/v1/clusters/prod/agents/${pod}`, token, { ...report, ...body })
      expect(answer.status).toBe(200)
      return ((await answer.json()) as { pushKey?: string }).pushKey
    }
    const signing = harness({ secrets })
    const token = await signing.register('prod', { agentOrigins: ['http://*.agents.test:9000'] })
    const run = { notifyUrl: 'http://haproxy-0.agents.test:9000', instance: 'run-0123456789abcdef' }
    const key = await keyIn(signing, token, 'haproxy-0', run)
    expect(key).toMatch(/^[A-Za-z0-9_-]{43}$/)
    // The same key from another replica of the deployment; another for another run or pod; none where no push comes.
    expect(await keyIn(harness({ store: signing.store, secrets }), token, 'haproxy-0', run)).toBe(key)
    expect(await keyIn(signing, token, 'haproxy-0', { ...run, instance: 'run-fedcba9876543210' })).not.toBe(key)
    expect(await keyIn(signing, token, 'haproxy-1', { ...run, notifyUrl: 'http://haproxy-1.agents.test:9000' })).not.toBe(key)
    expect(await keyIn(signing, token, 'haproxy-2', { ...run, notifyUrl: 'http://haproxy-2.elsewhere.test:9000' })).toBeUndefined()
    expect(await keyIn(signing, token, 'haproxy-3', { notifyUrl: 'http://haproxy-3.agents.test:9000' })).toBeUndefined()
    const plain = harness()
    expect(await keyIn(plain, await plain.register('prod', { agentOrigins: ['http://*.agents.test:9000'] }), 'haproxy-0', run)).toBeUndefined()
    // The key is not stored: a reader of the store cannot sign.
    const rekeyed = await keyIn(signing, token, 'haproxy-0', run)
    expect(rekeyed).toBe(key)
    const stored = new TextDecoder().decode((await signing.store.get(agentKey(clusterKeys('prod').root, 'haproxy-0')))!.body)
    expect(JSON.parse(stored)).toMatchObject({ instance: run.instance })
    expect(stored).not.toContain(key)
    // An instance is a base64url name, not anything a report may carry.
    expect((await signing.call('POST', '/v1/clusters/prod/agents/haproxy-9', token, { ...report, instance: 'short' })).status).toBe(400)
  })

  it('calls no agent of a cluster that allows no origin, nor a URL outside the allowed ones', async () => {
    const { register, events, call } = harness()
    const agent = await listeningAgent()
    closing.push(agent.close)
    const closed = await register('closed')
    await call('POST', '/v1/clusters/closed/agents/haproxy-0', closed, { ...report, notifyUrl: agent.url })
    const elsewhere = await register('elsewhere', { agentOrigins: ['http://127.0.0.2:*'] })
    await call('POST', '/v1/clusters/elsewhere/agents/haproxy-0', elsewhere, { ...report, notifyUrl: agent.url })
    await events('closed', closed, app(1).map(put))
    await events('elsewhere', elsewhere, app(1).map(put))
    // A push would have been sent before the answer's background work settles; give it the same chance the first test needed.
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(agent.notified).toEqual([])
  })

  it('has at most PUSH_CONCURRENCY pushes in flight at once, however many agents the cluster has', async () => {
    let inFlight = 0
    let mostInFlight = 0
    const notified: string[] = []
    const fetcher = (async (url: string | URL | Request) => {
      mostInFlight = Math.max(mostInFlight, ++inFlight)
      await new Promise((resolve) => setTimeout(resolve, 5))
      inFlight--
      notified.push(String(url))
      return new Response(null, { status: 202 })
    }) as typeof fetch
    const { register, events, call } = harness({ fetcher })
    const token = await register('prod', { agentOrigins: ['http://*.agents.test:9000'] })
    const agents = Array.from({ length: PUSH_CONCURRENCY * 3 }, (_, n) => `haproxy-${n}`)
    for (const pod of agents) await call('POST', `/v1/clusters/prod/agents/${pod}`, token, { ...report, notifyUrl: `http://${pod}.agents.test:9000` })
    await events('prod', token, app(1).map(put))
    await eventually('every push', () => notified.length === agents.length)
    expect(mostInFlight).toBe(PUSH_CONCURRENCY)
  })

  it('pushes to no more agents than a cluster keeps, even those reported since their addresses were last read', async () => {
    const pushedTo = new Map<string, string[]>()
    const fetcher = (async (url: string | URL | Request, init?: RequestInit) => {
      const { manifest } = JSON.parse(String(init?.body)) as { manifest: string }
      pushedTo.set(manifest, [...(pushedTo.get(manifest) ?? []), String(url)])
      return new Response(null, { status: 202 })
    }) as typeof fetch
    const { register, call, app: hapedge } = harness({ fetcher })
    const token = await register('prod', { agentOrigins: ['http://*.agents.test:9000'] })
    const reportAs = (pod: string) => call('POST', `/v1/clusters/prod/agents/${pod}`, token, { ...report, notifyUrl: `http://${pod}.agents.test:9000` })
    // A commit, and the pushes it runs past its answer, as a Worker's waitUntil would keep them.
    const commitAndPush = async (objects: unknown[]) => {
      const background: Promise<unknown>[] = []
      const init = {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ events: objects.map(put) }),
      }
      const answer = await hapedge.request('/v1/clusters/prod/events', init, undefined, {
        waitUntil: (work: Promise<unknown>) => background.push(work),
        passThroughOnException: () => {},
        props: {},
      })
      const { manifest } = (await answer.json()) as { manifest: string }
      await Promise.all(background)
      return pushedTo.get(manifest) ?? []
    }
    await reportAs('haproxy-first')
    expect(await commitAndPush(app(1))).toEqual(['http://haproxy-first.agents.test:9000/notify'])
    for (let n = 0; n < AGENTS_PER_CLUSTER + 8; n++) await reportAs(`haproxy-${n}`)
    const second = await commitAndPush(app(2))
    expect(new Set(second).size).toBe(AGENTS_PER_CLUSTER)
    expect(second).toHaveLength(AGENTS_PER_CLUSTER)
    expect(second).not.toContain('http://haproxy-first.agents.test:9000/notify')
  })

  it("warns an agent whose URL the cluster's agentOrigins do not allow, in its answer, its record and the fleet, and not one they allow", async () => {
    const { register, call, app: hapedge } = harness()
    const token = await register('prod', { agentOrigins: ['http://*.agents.test:9000'] })
    const answerTo = async (pod: string, notifyUrl: string) => {
      const answer = await call('POST', `/v1/clusters/prod/agents/${pod}`, token, { ...report, notifyUrl })
      expect(answer.status).toBe(200)
      return ((await answer.json()) as { warnings: string[] }).warnings
    }
    const warning =
      "notifyUrl http://10.0.0.5:9000: not allowed by the cluster's agentOrigins (http://*.agents.test:9000); this agent is not pushed to and waits for its poll"
    expect(await answerTo('outside', 'http://10.0.0.5:9000')).toEqual([warning])
    expect(await answerTo('inside', 'http://inside.agents.test:9000')).toEqual([])

    const listed = (await (await call('GET', '/v1/clusters/prod/agents', token)).json()) as { agents: { pod: string; warnings: string[] }[] }
    expect(Object.fromEntries(listed.agents.map((agent) => [agent.pod, agent.warnings]))).toEqual({ outside: [warning], inside: [] })
    const fleet = (await (await call('GET', '/v1/fleet/prod', ADMIN)).json()) as { agents: { pod: string; warnings: string[] }[] }
    expect(Object.fromEntries(fleet.agents.map((agent) => [agent.pod, agent.warnings]))).toEqual({ outside: [warning], inside: [] })

    const login = await hapedge.request('/fleet/login', { method: 'POST', body: new URLSearchParams({ token: ADMIN }) })
    const cookie = /^(hapedge_fleet=[^;]+)/.exec(login.headers.get('set-cookie') ?? '')?.[1] ?? ''
    const page = await (await hapedge.request('/fleet/prod', { headers: { cookie } })).text()
    expect(page).toContain('not allowed by the cluster&#39;s agentOrigins')
  })

  it('refuses an agent report whose URL has credentials, and a registration whose origin is not one', async () => {
    const { register, call } = harness()
    const token = await register('prod')
    const bad = await call('POST', '/v1/clusters/prod/agents/haproxy-0', token, { ...report, notifyUrl: 'http://user:secret@10.0.0.1:9000' })
    expect(bad.status).toBe(400)
    expect(((await bad.json()) as { error: { path: string } }).error.path).toBe('notifyUrl')
    await expect(register('other', { agentOrigins: ['http://10.0.0.1/notify'] })).rejects.toThrow(/agentOrigins\[0\]/)
  })
})
