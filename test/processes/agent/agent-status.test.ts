import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { Agent, type AgentStatus } from '../../../processes/agent/agent.ts'
import { CheckRefused } from '../../../processes/agent/master-reload.ts'
import { statusReporter } from '../../../processes/agent/report-status.ts'
import { app, coldContext } from '../../support/contracts/cluster-apps.ts'
import { makeTempDir, removeTempDir } from '../../support/temp-dir.ts'
import { harness } from '../../functions/app/app-harness.ts'

const put = (object: unknown) => ({ type: 'MODIFIED', object })

/** What an agent's status says of what runs. */
const said = ({ generation, manifest, lastError }: AgentStatus) => ({ generation, manifest, lastError })

describe('what the agent reports of itself', () => {
  let dir: string
  beforeEach(async () => void (dir = await makeTempDir('hapedge-agent-status')))
  afterEach(() => removeTempDir(dir))

  /** A cluster with one generation, and agents on `dir` that reach it through a link that can be cut. */
  async function setup() {
    const server = harness()
    const token = await server.register('prod')
    const committed = (await (await server.events('prod', token, app(1).map(put))).json()) as { generation: number; manifest: string }
    const link = { down: false }
    const source = server.sourceFor('prod', token, (url) => {
      if (link.down && url.includes('/head')) throw new TypeError('fetch failed')
    })
    const reported: AgentStatus[] = []
    const agentOn = (pod?: string) => new Agent(source, dir, coldContext(), undefined, pod ? async (status) => void reported.push(status) : undefined)
    const agents = async () =>
      (
        (await (await server.call('GET', '/v1/clusters/prod/agents', token)).json()) as {
          agents: { pod: string; generation: number | null; lastError: string | null }[]
        }
      ).agents
    return { server, token, committed, link, source, reported, agentOn, agents }
  }

  it('after --once, names the generation found installed in DIR, in its first report and before any pull', async () => {
    const { committed, link, reported, agentOn, source, agents } = await setup()
    expect(said(await agentOn().sync())).toEqual({ generation: committed.generation, manifest: committed.manifest, lastError: null })

    const following = new Agent(source, dir, coldContext(), undefined, statusReporter(source, 'haproxy-0'))
    expect(said(await following.sync())).toEqual({ generation: committed.generation, manifest: committed.manifest, lastError: null })
    await following.reported()
    expect(await agents()).toMatchObject([{ pod: 'haproxy-0', generation: committed.generation, behind: 0 }])

    // The function cannot be reached: an agent started next still says what runs, from DIR alone.
    link.down = true
    const cut = agentOn('haproxy-1')
    const status = await cut.sync()
    await cut.reported()
    expect(said(reported[0]!)).toEqual({ generation: committed.generation, manifest: committed.manifest, lastError: null })
    expect(status).toMatchObject({ generation: committed.generation, manifest: committed.manifest, lastError: expect.any(String) })
  })

  it('clears its last error once a sync goes through, though nothing new was taken, and the function keeps what it is told', async () => {
    const { link, source, agents } = await setup()
    const agent = new Agent(source, dir, coldContext(), undefined, statusReporter(source, 'haproxy-0'))
    await agent.sync()
    link.down = true
    expect((await agent.sync()).lastError).toEqual(expect.any(String))
    await agent.reported()
    expect((await agents())[0]!.lastError).toEqual(expect.any(String))

    link.down = false
    expect((await agent.sync()).lastError).toBeNull()
    await agent.reported()
    expect((await agents())[0]!.lastError).toBeNull()
  })

  it('keeps reporting a refusal by haproxy -c while HEAD still names the refused generation', async () => {
    const { source } = await setup()
    const refusing = { check: async () => Promise.reject(new CheckRefused('haproxy -c refused it', '[ALERT] (1) : config : unknown keyword\n')) }
    const agent = new Agent(source, dir, coldContext(), refusing)
    const refusal = (await agent.sync()).lastError
    expect(refusal).toMatch(/^haproxy -c refused generation 1 /)
    expect((await agent.sync()).lastError).toBe(refusal)
  })
})
