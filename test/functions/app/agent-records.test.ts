import { describe, expect, it } from 'vitest'
import { clusterKeys } from '../../../core/keys/cluster-keys.ts'
import { agentKey, LAST_ERROR_CHARS } from '../../../core/registry/agent-report.ts'
import { AGENT_RECORD_TTL_MS, AGENTS_PER_CLUSTER } from '../../../core/registry/agent-retention.ts'
import { app, instantClock } from '../../support/contracts/cluster-apps.ts'
import { eventually } from '../../support/eventually.ts'
import { ADMIN, harness } from './app-harness.ts'

const report = { generation: null, manifest: null, applied: null, appliedAt: null, lastError: null }
const put = (object: unknown) => ({ type: 'MODIFIED', object })

/** The app with a clock the test moves, one registered cluster, and its agents' reports as the routes give them. */
async function cluster(options: Parameters<typeof harness>[0] = {}) {
  const clock = instantClock()
  const h = harness({ clock, ...options })
  const token = await h.register('prod', { agentOrigins: ['http://*.agents.test:9000'] })
  const reportAs = async (pod: string, body: Record<string, unknown> = {}) => {
    const answer = await h.call('POST', `/v1/clusters/prod/agents/${pod}`, token, { ...report, ...body })
    expect(answer.status).toBe(200)
    return (await answer.json()) as { lastError: string | null }
  }
  const listed = async () =>
    ((await (await h.call('GET', '/v1/clusters/prod/agents', token)).json()) as { agents: { pod: string; lastError: string | null }[] }).agents
  const inFleet = async () => ((await (await h.call('GET', '/v1/fleet/prod', ADMIN)).json()) as { agents: { pod: string }[] }).agents
  return { ...h, clock, token, reportAs, listed, inFleet }
}

const pods = (agents: readonly { pod: string }[]) => agents.map((agent) => agent.pod).sort()

describe("a cluster's agent records", () => {
  it('are at most AGENTS_PER_CLUSTER: a new pod beyond it expires the one whose last report is oldest', async () => {
    const { clock, reportAs, listed, inFleet } = await cluster()
    const first = Array.from({ length: AGENTS_PER_CLUSTER }, (_, n) => `haproxy-${n}`)
    const later = Array.from({ length: 300 - AGENTS_PER_CLUSTER }, (_, n) => `haproxy-new-${n}`)
    for (const pod of first) {
      clock.advance(1_000)
      await reportAs(pod)
    }
    // The first pod reports again, so it is no longer the oldest reporter, though the first recorded.
    clock.advance(1_000)
    await reportAs(first[0]!)
    for (const pod of later) {
      clock.advance(1_000)
      await reportAs(pod)
    }
    const expected = [first[0]!, ...first.slice(1 + later.length), ...later].sort()
    expect(pods(await listed())).toEqual(expected)
    expect(pods(await inFleet())).toEqual(expected)
  })

  it('are no longer listed, nor pushed to, after AGENT_RECORD_TTL_MS without a report, and are deleted at the next new pod', async () => {
    const notified: string[] = []
    const fetcher = (async (url: string | URL | Request) => (notified.push(String(url)), new Response(null, { status: 202 }))) as typeof fetch
    const { clock, reportAs, listed, inFleet, events, token, store } = await cluster({ fetcher })
    await reportAs('gone', { notifyUrl: 'http://gone.agents.test:9000' })
    clock.advance(AGENT_RECORD_TTL_MS)
    expect(await listed()).toEqual([])
    expect(await inFleet()).toEqual([])

    await reportAs('running', { notifyUrl: 'http://running.agents.test:9000' })
    expect(pods(await listed())).toEqual(['running'])
    expect(await store.head(agentKey(clusterKeys('prod').root, 'gone'))).toBeUndefined()
    await events('prod', token, app(1).map(put))
    await eventually('the push', () => notified.length > 0)
    expect(notified).toEqual(['http://running.agents.test:9000/notify'])
  })

  it('keep LAST_ERROR_CHARS of a longer last error, cut with a mark, instead of refusing the report', async () => {
    const { reportAs, listed } = await cluster()
    const error = `haproxy -c: ${'[ALERT] a line of haproxy -c output\n'.repeat(LAST_ERROR_CHARS / 16)}`
    const stored = await reportAs('haproxy-0', { lastError: error })
    expect(stored.lastError).toHaveLength(LAST_ERROR_CHARS)
    expect(stored.lastError).toBe(`${error.slice(0, LAST_ERROR_CHARS - 1)}…`)
    expect((await listed())[0]!.lastError).toBe(stored.lastError)
  })
})
