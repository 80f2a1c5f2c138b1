import { readdir, readFile, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { fullRebuild } from '../../../core/render/full-rebuild.ts'
import { planFromFiles } from '../../../core/plan/plan-from-files.ts'
import type { Plan } from '../../../core/plan/plan.ts'
import { Agent, type HaproxyControl } from '../../../processes/agent/agent.ts'
import { installedGeneration } from '../../../processes/agent/generation-dir.ts'
import { CheckRefused } from '../../../processes/agent/master-reload.ts'
import { statusReporter } from '../../../processes/agent/report-status.ts'
import { app, coldContext } from '../../support/contracts/cluster-apps.ts'
import { endpointSlice } from '../../support/objects.ts'
import { makeTempDir, removeTempDir } from '../../support/temp-dir.ts'
import { ADMIN, harness } from '../../functions/app/app-harness.ts'

const put = (object: unknown) => ({ type: 'MODIFIED', object })

/** A stand-in for HAProxy's sockets (the real ones are tested in test/integration): records what the agent asks, and fails on demand. */
class RecordingHaproxy implements HaproxyControl {
  readonly calls: string[] = []
  readonly plans: Plan[] = []
  failRuntime = false
  failCheck = false
  async applyRuntime(plan: Plan) {
    this.plans.push(plan)
    this.calls.push(`runtime ${plan.servers.length} servers ${plan.maps.length} map entries`)
    if (this.failRuntime) throw new Error('Unknown command')
  }
  async checkedReload() {
    this.calls.push('reload')
    if (this.failCheck) throw new Error('haproxy -c: [ALERT] parsing error')
  }
}

describe('the agent', () => {
  let dir: string
  beforeEach(async () => void (dir = await makeTempDir('hapedge-agent')))
  afterEach(() => removeTempDir(dir))

  async function setup(tamper?: (url: string, body: ArrayBuffer) => ArrayBuffer) {
    const server = harness()
    const token = await server.register('prod')
    const fetched: string[] = []
    const fetcher = (async (input: string | URL | Request, init?: RequestInit) => {
      if (String(input).includes('/blobs/')) fetched.push(String(input))
      const response = await server.app.request(String(input), init)
      if (tamper && String(input).includes('/blobs/'))
        return new Response(tamper(String(input), await response.arrayBuffer()), { status: response.status, headers: response.headers })
      if (!tamper || !String(input).includes('/head?have=')) return response
      // HEAD's answer carries the blobs the agent lacks: tamper with those too.
      const head = (await response.json()) as { blobs: Record<string, string> }
      const blobs = Object.fromEntries(
        Object.entries(head.blobs).map(([sha256, text]) => [sha256, new TextDecoder().decode(tamper(String(input), new TextEncoder().encode(text).buffer))]),
      )
      return Response.json({ ...head, blobs })
    }) as typeof fetch
    const haproxy = new RecordingHaproxy()
    const source = { source: 'http://hapedge', cluster: 'prod', token, fetcher }
    const agent = new Agent(source, dir, coldContext(), haproxy, statusReporter(source, 'haproxy-0'))
    return { server, token, agent, haproxy, source, fetched }
  }

  it('installs each new generation whole, applies endpoint changes at runtime and new backends by a reload', async () => {
    const { server, token, agent, haproxy } = await setup()
    expect(await agent.sync()).toMatchObject({ manifest: null, lastError: null })
    await server.events('prod', token, app(1).map(put))
    expect(await agent.sync()).toMatchObject({ generation: 1, applied: 'reload', lastError: null })
    expect((await installedGeneration(dir))!.files).toEqual(fullRebuild(app(1)).files)

    await server.events('prod', token, [put(endpointSlice('app-1', ['10.0.0.7', '10.0.0.8']))])
    expect(await agent.sync()).toMatchObject({ generation: 2, applied: 'runtime' })
    await server.events('prod', token, app(2).map(put))
    expect(await agent.sync()).toMatchObject({ generation: 3, applied: 'reload' })
    expect(haproxy.calls).toEqual(['reload', 'runtime 2 servers 0 map entries', 'reload'])
    expect(await readFile(join(dir, 'current', '20-backends.cfg'), 'utf8')).toMatch(/backend default_app-2_80/)
    // Files the change left alone are links to the previous generation's, not copies.
    const generations = await readdir(join(dir, '.generations'))
    const inodes = await Promise.all(generations.map(async (name) => (await stat(join(dir, '.generations', name, '00-global.cfg'))).ino))
    expect(new Set(inodes).size).toBe(1)
    for (let n = 3; n < 8; n++) {
      await server.events('prod', token, app(n).map(put))
      await agent.sync()
    }
    expect((await readdir(join(dir, '.generations'))).length).toBe(3)

    // The cluster's status shows what this pod runs, and how far behind it is.
    await agent.reported()
    await server.events('prod', token, app(9).map(put))
    const listed = (await (await server.call('GET', '/v1/clusters', ADMIN)).json()) as { clusters: { generation: number; agents: unknown[] }[] }
    expect(listed.clusters[0]).toMatchObject({ generation: 9, agents: [{ pod: 'haproxy-0', generation: 8, behind: 1, lastError: null }] })
    const agents = await (await server.call('GET', '/v1/clusters/prod/agents', token)).json()
    expect(agents).toMatchObject({ generation: 9, agents: [{ pod: 'haproxy-0', generation: 8, applied: 'reload', behind: 1 }] })
  })

  it('falls back to a reload when the runtime API fails, and keeps the running generation when the new files fail the check', async () => {
    const { server, token, agent, haproxy } = await setup()
    await server.events('prod', token, app(1).map(put))
    await agent.sync()
    haproxy.failRuntime = true
    await server.events('prod', token, [put(endpointSlice('app-1', ['10.0.0.9']))])
    expect(await agent.sync()).toMatchObject({ generation: 2, applied: 'reload' })

    const before = await installedGeneration(dir)
    haproxy.failCheck = true
    await server.events('prod', token, app(2).map(put))
    expect(await agent.sync()).toMatchObject({ generation: 2, lastError: 'haproxy -c: [ALERT] parsing error' })
    expect(await installedGeneration(dir)).toEqual(before)
  })

  it('plans a generation against the files it runs, not against one it pulled and then rolled back', async () => {
    const { server, token, agent, haproxy } = await setup()
    await server.events('prod', token, app(1).map(put))
    await agent.sync()
    const running = (await installedGeneration(dir))!.files
    // A path the runtime API fails to add and the check then refuses: the agent keeps the files it ran.
    Object.assign(haproxy, { failRuntime: true, failCheck: true })
    await server.events('prod', token, [put(app(1, ['/', '/a'])[0])])
    await agent.sync()
    expect((await installedGeneration(dir))!.files).toEqual(running)

    Object.assign(haproxy, { failRuntime: false, failCheck: false })
    await server.events('prod', token, [put(app(1, ['/', '/a', '/b'])[0])])
    expect(await agent.sync()).toMatchObject({ generation: 3, applied: 'runtime' })
    const plan = planFromFiles(running, (await installedGeneration(dir))!.files)
    expect(plan.maps.map(({ key }) => key)).toEqual(expect.arrayContaining([expect.stringContaining('/a'), expect.stringContaining('/b')]))
    expect(haproxy.plans.at(-1)).toEqual(plan)
  })

  it('started on the files installed before, reads only what the next generation changed, not the generation nor the maps it changed', async () => {
    const { server, token, agent, haproxy, source, fetched } = await setup()
    // 1,000 apps: a map chunk holds 128 lines, and at 60 the whole generation was 12 blobs, the change 4 of them.
    const apps = 1000
    await server.events(
      'prod',
      token,
      Array.from({ length: apps }, (_, n) => app(n + 1))
        .flat()
        .map(put),
    )
    await agent.sync()
    const whole = fetched.length
    const restarted = new Agent(source, dir, coldContext(), haproxy)
    expect(await restarted.sync()).toMatchObject({ generation: 1, lastError: null })
    fetched.length = 0
    await server.events('prod', token, [put(app(7, ['/', '/new'])[0])])
    expect(await restarted.sync()).toMatchObject({ generation: 2, applied: 'runtime' })
    expect((await installedGeneration(dir))!.files).toEqual(
      fullRebuild([...Array.from({ length: apps }, (_, n) => app(n + 1)).flat(), app(7, ['/', '/new'])[0]]).files,
    )
    // A changed map's text is the installed one with the changed lines put in: its other chunks are not fetched (13 of 162 blobs when they were, 5 now).
    expect(fetched.length).toBeLessThan(whole / 16)
  })

  it('takes a push at once while the last report is still on its way, and reports the newest status after it', async () => {
    const { server, token } = await setup()
    let release!: () => void
    const hanging = new Promise<void>((resolve) => (release = resolve))
    const reports: (number | null)[] = []
    const source = server.sourceFor('prod', token)
    // The first report hangs until released (a slow function): the next sync must neither wait for it nor be lost.
    const agent = new Agent(source, dir, coldContext(), new RecordingHaproxy(), async (status) => {
      reports.push(status.generation)
      if (status.generation === 1) await hanging
    })
    await server.events('prod', token, app(1).map(put))
    await agent.sync()
    await server.events('prod', token, app(2).map(put))
    expect(await agent.sync()).toMatchObject({ generation: 2, lastError: null })
    expect(reports).toEqual([1])
    release()
    await agent.reported()
    expect(reports).toEqual([1, 2])
  })

  it('without a running HAProxy, makes a generation current only once haproxy -c accepts it where it is staged', async () => {
    const { server, token } = await setup()
    const checked: string[] = []
    let refuse = true
    const check = {
      async check(staged: string) {
        checked.push(staged)
        if (refuse)
          throw new CheckRefused(
            'haproxy -c refused it',
            `[NOTICE] (1) : haproxy version is 2.6\n[ALERT] (1) : config : parsing [${staged}/20-backends.cfg:1] : unknown keyword\n`,
          )
      },
    }
    const source = server.sourceFor('prod', token)
    const agent = new Agent(source, dir, coldContext(), check)
    await server.events('prod', token, app(1).map(put))
    const refused = await agent.sync()
    expect(refused).toMatchObject({ generation: null, manifest: null })
    expect(refused.lastError).toMatch(
      /^haproxy -c refused generation 1 \([0-9a-f]{12}\), blaming Service default\/app-1; no generation is current:\n\[ALERT\] .*unknown keyword$/,
    )
    expect(await installedGeneration(dir)).toBeUndefined()
    expect(await readFile(join(checked[0]!, '20-backends.cfg'), 'utf8')).toMatch(/^backend default_app-1_80\n/)

    refuse = false
    await server.events('prod', token, app(2).map(put))
    expect(await agent.sync()).toMatchObject({ generation: 2, applied: 'written', lastError: null })
    expect((await installedGeneration(dir))!.files).toEqual(fullRebuild([...app(1), ...app(2)]).files)
  })

  it('refuses a generation with a tampered blob, naming it, and keeps the files it has', async () => {
    let tampering = false
    const { server, token, agent } = await setup((_, body) => (tampering ? new TextEncoder().encode('backend evil\n').buffer : body))
    await server.events('prod', token, app(1).map(put))
    await agent.sync()
    const before = await installedGeneration(dir)
    tampering = true
    await server.events('prod', token, app(2).map(put))
    const status = await agent.sync()
    expect(status.generation).toBe(1)
    expect(status.lastError).toMatch(/^clusters\/prod\/blobs\/[0-9a-f]{64}: content does not match its sha256$/)
    expect(await installedGeneration(dir)).toEqual(before)
  })
})
