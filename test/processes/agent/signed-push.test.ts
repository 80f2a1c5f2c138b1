import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { PushKeys } from '../../../functions/app/services/push-keys.ts'
import { Agent, type HaproxyControl } from '../../../processes/agent/agent.ts'
import { agentApp } from '../../../processes/agent/agent-app.ts'
import type { AgentLog } from '../../../processes/agent/agent-log.ts'
import { statusReporter } from '../../../processes/agent/report-status.ts'
import { SignedHeads } from '../../../processes/agent/signed-heads.ts'
import { app, coldContext } from '../../support/contracts/cluster-apps.ts'
import { eventually } from '../../support/eventually.ts'
import { endpointSlice } from '../../support/objects.ts'
import { makeTempDir, removeTempDir } from '../../support/temp-dir.ts'
import { harness } from '../../functions/app/app-harness.ts'

const SECRET = 'a-deployment-secret-of-enough-length-0123456789'
const AGENT_URL = 'http://haproxy-0.agents.test:9000'
const put = (object: unknown) => ({ type: 'MODIFIED', object })

const noHaproxy: HaproxyControl = { applyRuntime: async () => {}, checkedReload: async () => {} }

/**
 * The function and a listening agent in one process, each calling the other through its HTTP app:
 * the function's pushes go to the agent's `/notify`, the agent's reads and reports to the function.
 */
async function pushedAgent(dir: string, options: { secret: boolean }) {
  let agentHttp: ReturnType<typeof agentApp> | undefined
  const pushes: { body: Record<string, unknown>; answer: Record<string, unknown> }[] = []
  const server = harness({
    ...(options.secret ? { secrets: { current: SECRET } } : {}),
    fetcher: (async (input: string | URL | Request, init?: RequestInit) => {
      const response = await agentHttp!.request(String(input), init)
      pushes.push({ body: JSON.parse(String(init?.body)), answer: await response.clone().json() })
      return response
    }) as typeof fetch,
  })
  const token = await server.register('prod', { agentOrigins: ['http://*.agents.test:9000'] })
  const asked: string[] = []
  const source = server.sourceFor('prod', token, (url) => void asked.push(new URL(url).pathname.replace('/v1/clusters/prod/', '')))
  const said: string[] = []
  const log: AgentLog = (line) => said.push(line)
  const signed = new SignedHeads('prod')
  const agent = new Agent(source, dir, coldContext(), noHaproxy, statusReporter(source, 'haproxy-0', { notifyUrl: AGENT_URL, log, signed }), log)
  agentHttp = agentApp(agent, signed)
  await server.events('prod', token, app(1).map(put))
  await agent.sync('start')
  await agent.reported()
  /** A change of endpoints, committed and taken by the agent (from the push it causes), with what it asked for meanwhile. */
  const change = async (address: string) => {
    asked.length = 0
    const committed = (await (await server.events('prod', token, [put(endpointSlice('app-1', [address]))])).json()) as { generation: number; manifest: string }
    await eventually(`generation ${committed.generation} taken`, () => agent.status.manifest === committed.manifest)
    return committed
  }
  return { agent, agentHttp, pushes, asked, said, change }
}

describe('pushes signed for an agent run', () => {
  let dir: string
  beforeEach(async () => void (dir = await makeTempDir('hapedge-signed-push')))
  afterEach(() => removeTempDir(dir))

  it('carry HEAD and the blobs the agent lacks, which it takes without asking for HEAD', async () => {
    const { agent, pushes, asked, said, change } = await pushedAgent(dir, { secret: true })
    const committed = await change('10.0.0.7')
    expect(pushes).toHaveLength(1)
    const [{ body, answer }] = pushes as [{ body: { generation: number; manifest: string; signature: string; blobs: Record<string, string> }; answer: unknown }]
    expect(body).toMatchObject({ generation: committed.generation, manifest: committed.manifest, signature: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) })
    // The blobs since the generation the agent reported: the new manifest record among them, each named by its sha256.
    expect(Object.keys(body.blobs)).toContain(committed.manifest)
    for (const [sha256, text] of Object.entries(body.blobs)) expect(coldContext().hash(text)).toBe(sha256)
    expect(answer).toEqual({ accepted: true, signed: true })
    // Neither HEAD nor a blob was asked for: the push carried them.
    await agent.reported()
    expect(asked.filter((path) => path !== 'agents/haproxy-0')).toEqual([])
    expect(said.at(-1)).toMatch(new RegExp(`^generation ${committed.generation} applied at runtime in \\d+ ms: .* \\(by signed push\\)$`))
  })

  it("are read as a plain push when the signature is not this run's: tampered, for another cluster or run, or older than what it runs", async () => {
    const { agent, agentHttp, asked, pushes, change } = await pushedAgent(dir, { secret: true })
    await change('10.0.0.7')
    const committed = await change('10.0.0.8')
    await agent.reported()
    const keys = new PushKeys(SECRET)
    const run = { cluster: 'prod', pod: 'haproxy-0', instance: 'another-run-of-haproxy-0' }
    const forged = { generation: committed.generation + 5, manifest: 'f'.repeat(64) }
    const notify = async (body: unknown) => {
      asked.length = 0
      const answer = (await (await agentHttp.request('/notify', { method: 'POST', body: JSON.stringify(body) })).json()) as { signed: boolean }
      await agent.sync('poll')
      return { signed: answer.signed, askedHead: asked.some((path) => path.startsWith('head')) }
    }
    // Signed for another run of the same pod: the push only starts a sync, which asks HEAD and keeps what runs.
    expect(await notify({ ...forged, signature: keys.sign(run, forged) })).toEqual({ signed: false, askedHead: true })
    expect(await notify({ ...forged, signature: keys.sign({ ...run, cluster: 'staging' }, forged) })).toEqual({ signed: false, askedHead: true })
    expect(await notify({ ...forged, signature: 'A'.repeat(43) })).toEqual({ signed: false, askedHead: true })
    expect(await notify({ generation: 'one', manifest: 'nope' })).toEqual({ signed: false, askedHead: true })
    // Signed for this run, but older than what it runs (a replay): the signature holds, the head is not taken.
    expect(await notify(pushes[0]!.body)).toEqual({ signed: true, askedHead: true })
    expect(agent.status).toMatchObject({ generation: committed.generation, manifest: committed.manifest, lastError: null })
  })

  it("are refused past the agent's body limit, before they are read", async () => {
    const { agentHttp } = await pushedAgent(dir, { secret: true })
    const answer = await agentHttp.request('/notify', { method: 'POST', body: JSON.stringify({ blobs: { x: 'x'.repeat(5 * 1024 * 1024) } }) })
    expect(answer.status).toBe(413)
    expect(await answer.json()).toEqual({ error: expect.stringMatching(/^a push's body is at most \d+ bytes$/) })
  })

  it('are not sent where the deployment has no secret: the agent is told the generation and reads HEAD', async () => {
    const { pushes, asked, said, change } = await pushedAgent(dir, { secret: false })
    const committed = await change('10.0.0.7')
    expect(pushes.map(({ body, answer }) => ({ body, answer }))).toEqual([
      { body: { generation: committed.generation, manifest: committed.manifest }, answer: { accepted: true, signed: false } },
    ])
    expect(asked.some((path) => path.startsWith('head'))).toBe(true)
    expect(said.at(-1)).toMatch(/\(by push\)$/)
  })
})
