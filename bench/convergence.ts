import { answeredBy } from '../test/integration/serve-cluster.ts'
import { startEdgeStack } from '../test/support/edge-stack.ts'
import { request } from '../test/support/http-client.ts'
import { endpointSlice, ingress, service } from '../test/support/objects.ts'
import { latency, type Latency } from './stats.ts'

export interface Convergence {
  runtime: Latency
  reload: Latency
}

const NO_REDIRECT = { 'hapedge.io/ssl-redirect': 'false' }

/**
 * From the event posted to the new route answering through HAProxy: a path added to an existing
 * backend (a map entry, applied at runtime) and a path to a new Service (a new backend: a
 * reload). Nothing but the function's push to the agent's `--listen` address tells the agent.
 */
export async function measureConvergence(samples: number): Promise<Convergence> {
  const paths: { path: string; service: string }[] = [{ path: '/', service: 'web' }]
  const shop = () =>
    ingress({
      name: 'shop',
      annotations: NO_REDIRECT,
      rules: [{ host: 'shop.test', paths: paths.map(({ path, service: name }) => ({ path, service: name })) }],
    })
  const pools = { web: ['web-1'], ...Object.fromEntries(Array.from({ length: Math.max(3, Math.ceil(samples / 4)) }, (_, n) => [`new-${n}`, [`new-${n}`]])) }
  const stack = await startEdgeStack(pools, ({ backends }) => [
    service('web'),
    endpointSlice('web', [backends.get('web-1')!.host], [{ port: backends.get('web-1')!.port }]),
    shop(),
  ])
  const { agent, close } = await stack.listeningAgent()
  const until = async (path: string, backend: string) => {
    for (;;) {
      if (answeredBy(await request(`http://127.0.0.1:${stack.httpPort}${path}`, { headers: { host: 'shop.test' } })) === backend) return
      await new Promise((resolve) => setTimeout(resolve, 1))
    }
  }
  const change = async (events: { type: 'MODIFIED'; object: unknown }[], path: string, backend: string) => {
    const started = performance.now()
    const { generation } = await stack.send(events)
    await until(path, backend)
    const ms = performance.now() - started
    while (agent.status.generation !== generation) await new Promise((resolve) => setTimeout(resolve, 1))
    if (agent.status.lastError) throw new Error(agent.status.lastError)
    return { ms, applied: agent.status.applied }
  }
  try {
    const runtime: number[] = []
    for (let n = 0; n < samples; n++) {
      paths.push({ path: `/r${n}`, service: 'web' })
      const result = await change([{ type: 'MODIFIED', object: shop() }], `/r${n}/x`, 'web-1')
      if (result.applied === 'runtime') runtime.push(result.ms)
    }
    const reload: number[] = []
    for (let n = 0; n < Object.keys(pools).length - 1; n++) {
      const name = `new-${n}`
      const backend = stack.backends.get(name)!
      paths.push({ path: `/${name}`, service: name })
      const result = await change(
        [service(name), endpointSlice(name, [backend.host], [{ port: backend.port }]), shop()].map((object) => ({ type: 'MODIFIED' as const, object })),
        `/${name}/x`,
        name,
      )
      if (result.applied === 'reload') reload.push(result.ms)
    }
    return { runtime: latency(runtime), reload: latency(reload) }
  } finally {
    close()
    await stack.stop()
  }
}
