import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startEdgeStack, type EdgeStack } from '../support/edge-stack.ts'
import { eventually } from '../support/eventually.ts'
import { request } from '../support/http-client.ts'
import { endpointSlice, ingress, service } from '../support/objects.ts'
import { answeredBy } from './serve-cluster.ts'

/**
 * The real `hapedge agent` process beside HAProxy 2.6, following the real `hapedge serve`: it
 * polls only every ten minutes, so each change it takes came by the function's push. Killed with
 * SIGKILL while changes keep coming, then started again, it catches up from the files it left.
 */
describe('the agent as a process, driven by pushes', () => {
  let stack: EdgeStack
  const paths = ['/']
  const shop = () =>
    ingress({
      name: 'shop',
      annotations: { 'hapedge.io/ssl-redirect': 'false' },
      rules: [{ host: 'shop.test', paths: paths.map((path) => ({ path, service: path === '/' ? 'web' : 'api' })) }],
    })
  const answer = async (path: string) => answeredBy(await request(`http://127.0.0.1:${stack.httpPort}${path}`, { headers: { host: 'shop.test' } }))
  const addPath = async (path: string) => {
    paths.push(path)
    return stack.send([{ type: 'MODIFIED', object: shop() }])
  }
  const agents = async () => {
    const response = await fetch(`${stack.served.url}/v1/clusters/edge/agents`, { headers: { authorization: `Bearer ${stack.token}` } })
    return ((await response.json()) as { agents: { pod: string; generation: number | null; manifest: string | null; notifyUrl: string | null }[] }).agents
  }

  beforeAll(async () => {
    stack = await startEdgeStack({ web: ['web-1'], api: ['api-1'] }, ({ backends }) => {
      const slice = (name: string) => endpointSlice(name, [backends.get(`${name}-1`)!.host], [{ port: backends.get(`${name}-1`)!.port }])
      return [service('web'), slice('web'), service('api'), slice('api'), shop()]
    })
  }, 60_000)
  afterAll(() => stack?.stop())

  it('takes each change from a push, and after a SIGKILL and a restart serves every change it missed', async () => {
    let agent = await stack.agentProcess()
    let said = ''
    agent.stdout!.on('data', (chunk: Buffer) => (said += chunk.toString()))
    await eventually('the agent reporting its URL', async () => (await agents()).find((report) => report.pod === 'haproxy-0' && report.notifyUrl))

    for (const path of ['/a', '/b']) {
      const committed = await addPath(path)
      await eventually(`${path} served through HAProxy`, async () => (await answer(`${path}/x`)) === 'api-1')
      await eventually('the agent reporting the generation', async () => (await agents()).find((report) => report.generation === committed.generation))
      // hapedge serve keeps a deployment secret: the push carried HEAD, signed for this agent's run, which took it without asking.
      expect(said).toMatch(new RegExp(`^hapedge agent: generation ${committed.generation} .* \\(by signed push\\)$`, 'm'))
    }

    agent.kill('SIGKILL')
    await new Promise((resolve) => agent.once('exit', resolve))
    const missed = ['/c', '/d', '/e']
    let last = { generation: 0, manifest: '' }
    for (const path of missed) last = await addPath(path)
    expect(await answer('/c/x')).toBe('web-1')

    agent = await stack.agentProcess()
    for (const path of missed) await eventually(`${path} served after the restart`, async () => (await answer(`${path}/x`)) === 'api-1')
    expect(await answer('/b/x')).toBe('api-1')
    expect(await answer('/elsewhere')).toBe('web-1')
    await eventually('the restarted agent reporting the newest generation', async () => (await agents()).find((report) => report.manifest === last.manifest))
  }, 120_000)
})
