import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { Plan } from '../../../core/plan/plan.ts'
import { Agent, type HaproxyControl } from '../../../processes/agent/agent.ts'
import { followingLine } from '../../../processes/agent/agent-log.ts'
import { CheckRefused } from '../../../processes/agent/master-reload.ts'
import { statusReporter } from '../../../processes/agent/report-status.ts'
import { app, coldContext } from '../../support/contracts/cluster-apps.ts'
import { endpointSlice, ingress } from '../../support/objects.ts'
import { makeTempDir, removeTempDir } from '../../support/temp-dir.ts'
import { harness } from '../../functions/app/app-harness.ts'
import { SET_TIMEOUT_RULES } from '../../../core/render/render-timeouts.ts'

/** The first line of app-2's backend: after app-1's section (its name, its rules, its two server slots, a blank line). */
const APP_2_LINE = 1 + SET_TIMEOUT_RULES.length + 2 + 1 + 1

const put = (object: unknown) => ({ type: 'MODIFIED', object })

describe('what the agent says as it goes', () => {
  let dir: string
  beforeEach(async () => void (dir = await makeTempDir('hapedge-agent-log')))
  afterEach(() => removeTempDir(dir))

  /** An agent whose log lines are kept, beside a stand-in HAProxy that records each runtime plan and can refuse a reload. */
  async function setup() {
    const server = harness()
    const token = await server.register('prod')
    const link = { down: false }
    const source = server.sourceFor('prod', token, () => {
      if (link.down) throw new TypeError('fetch failed', { cause: Object.assign(new Error('connect ECONNREFUSED 10.0.0.1:443'), { code: 'ECONNREFUSED' }) })
    })
    const plans: Plan[] = []
    const haproxy = {
      refuse: undefined as string | undefined,
      async applyRuntime(plan: Plan) {
        plans.push(plan)
      },
      async checkedReload() {
        if (haproxy.refuse) throw new CheckRefused('haproxy -c refused the files', haproxy.refuse)
      },
    } satisfies HaproxyControl & { refuse: string | undefined }
    const lines: { line: string; level: 'info' | 'error' }[] = []
    const agent = new Agent(source, dir, coldContext(), haproxy, undefined, (line, level) => void lines.push({ line, level }))
    /** The lines said since the last call. */
    const said = () => lines.splice(0)
    return { server, token, link, plans, haproxy, agent, said }
  }

  it('says one line per generation: how it was taken, in how long, what changed or why it reloaded, and how the agent heard of it', async () => {
    const { server, token, plans, agent, said } = await setup()
    await agent.sync('start')
    expect(said()).toEqual([])

    await server.events('prod', token, app(1).map(put))
    await agent.sync('push')
    expect(said()).toEqual([
      { line: expect.stringMatching(/^generation 1 reloaded in \d+ ms: no generation was installed before \(by push\)$/), level: 'info' },
    ])

    await server.events('prod', token, [put(endpointSlice('app-1', ['10.0.0.7', '10.0.0.8']))])
    await agent.sync('poll')
    const servers = plans.at(-1)!.servers.length
    expect(said()).toEqual([
      { line: expect.stringMatching(new RegExp(`^generation 2 applied at runtime in \\d+ ms: ${servers} servers \\(by poll\\)$`)), level: 'info' },
    ])

    await server.events('prod', token, [
      put(
        ingress({
          name: 'app-1',
          rules: [
            {
              host: 'app-1.example.com',
              paths: [
                { path: '/', service: 'app-1' },
                { path: '/more', service: 'app-1' },
              ],
            },
          ],
        }),
      ),
    ])
    await agent.sync('watch')
    // The path is the exact map's only entry (swapped whole: a swap sends no more) and one of the prefix map's two.
    expect(plans.at(-1)!.maps).toHaveLength(2)
    expect(said()).toEqual([
      {
        line: expect.stringMatching(
          /^generation 3 applied at runtime in \d+ ms: 2 map entries \(maps\/prefix\.map entry by entry; maps\/exact\.map swapped whole: 1 change for 1 entry\) \(by watch\)$/,
        ),
        level: 'info',
      },
    ])

    await server.events('prod', token, app(2).map(put))
    await agent.sync('push')
    expect(said()).toEqual([{ line: expect.stringMatching(/^generation 4 reloaded in \d+ ms: backend default_app-2_80 is new \(by push\)$/), level: 'info' }])
  })

  it('says an error once with its cause, however many syncs meet it, and when it is over', async () => {
    const { server, token, link, agent, said } = await setup()
    await server.events('prod', token, app(1).map(put))
    await agent.sync()
    said()

    link.down = true
    await agent.sync()
    await agent.sync()
    expect(said()).toEqual([{ line: 'error: cannot reach http://hapedge: connect ECONNREFUSED 10.0.0.1:443', level: 'error' }])
    link.down = false
    await agent.sync()
    expect(said()).toEqual([{ line: 'recovered: the function answers, and generation 1 is the newest', level: 'info' }])
    await agent.sync()
    expect(said()).toEqual([])
  })

  it("says a generation haproxy -c refuses on one line, with the objects to blame and HAProxy's words, once", async () => {
    const { server, token, haproxy, agent, said } = await setup()
    await server.events('prod', token, app(1).map(put))
    await agent.sync()
    said()

    haproxy.refuse = `[NOTICE]   (7) : haproxy version is 2.6\n[ALERT]    (7) : config : parsing [current/20-backends.cfg:${APP_2_LINE}] : unknown keyword 'bogus'\n[ALERT]    (7) : config : Fatal errors found in configuration.\n`
    await server.events('prod', token, app(2).map(put))
    await agent.sync('push')
    await agent.sync('poll')
    const [refused, ...more] = said()
    expect(more).toEqual([])
    expect(refused).toEqual({
      line: expect.stringMatching(
        /^generation 2 refused by haproxy -c \([0-9a-f]{12}, blaming Service default\/app-2; the files before it stay current\): \[ALERT\] +\(7\) : config : parsing .*unknown keyword 'bogus' \| \[ALERT\] .*Fatal errors found in configuration\.$/,
      ),
      level: 'error',
    })
  })

  it('says what the function warns of in its answer to a report: a notifyUrl it will not push to', async () => {
    const server = harness()
    const token = await server.register('prod', { agentOrigins: ['https://*.pods.example.com'] })
    const lines: string[] = []
    const source = server.sourceFor('prod', token)
    const report = statusReporter(source, 'haproxy-0', { notifyUrl: 'http://127.0.0.1:8790', log: (line) => void lines.push(line) })
    const status = { generation: null, manifest: null, applied: null, appliedAt: null, lastError: null }
    await report(status)
    await report({ ...status, lastError: 'something else' })
    expect(lines).toEqual([
      "the function warns: notifyUrl http://127.0.0.1:8790: not allowed by the cluster's agentOrigins (https://*.pods.example.com); this agent is not pushed to and waits for its poll",
    ])
  })
})

describe('what the agent says when it starts', () => {
  const base = { cluster: 'prod', source: 'https://hapedge.example', poll: '5s' }

  it('names the cluster, the function and each way it hears of a generation', () => {
    expect(
      followingLine({
        ...base,
        push: { listen: { address: '127.0.0.1', port: 8790 }, advertised: 'http://127.0.0.1:8790' },
        watch: { namespace: 'hapedge', name: 'prod' },
      }),
    ).toBe(
      'following cluster prod at https://hapedge.example: push on 127.0.0.1:8790 (advertised as http://127.0.0.1:8790), watch HAProxyCfg hapedge/prod, poll every 5s',
    )
    expect(followingLine(base)).toBe('following cluster prod at https://hapedge.example: no push (no --listen), poll every 5s')
  })

  it('says when it listens where the function cannot be told of', () => {
    expect(followingLine({ ...base, push: { listen: { address: '::', port: 9000 }, advertised: undefined } })).toBe(
      'following cluster prod at https://hapedge.example: push on [::]:9000 (not advertised, so the function cannot push: set --advertise or POD_IP), poll every 5s',
    )
  })
})
