import { answeredBy } from '../test/integration/serve-cluster.ts'
import type { AgentStatus } from '../processes/agent/agent.ts'
import { startEdgeStack, type AgentProcess, type EdgeStack } from '../test/support/edge-stack.ts'
import { eventually } from '../test/support/eventually.ts'
import { request } from '../test/support/http-client.ts'
import { endpointSlice, service } from '../test/support/objects.ts'
import { seededRandom } from './random.ts'
import { ShopIngress } from './shop-ingress.ts'
import { removeAtExit } from './removed-at-exit.ts'
import { cpuSeconds } from './serve-meter.ts'
import { sendWrite } from './serve-client.ts'
import { latency, round, type Latency } from './stats.ts'
import { turnOrder, turnRatio } from './turns.ts'
import { syntheticCluster } from './synthetic-cluster.ts'

export interface Convergence {
  /** Ingresses of the synthetic cluster beside the one the changes touch. */
  background: number
  /**
   * Event posted → the function's answer, for the runtime changes. The push leaves as HEAD moves,
   * before the answer (which reads the generation's warnings after), so this is the commit and then some.
   */
  committed: Latency
  /** The function's answer → served, per runtime change: negative where the route answered first. */
  afterCommit: Latency
  runtime: Latency
  reload: Latency
  /** Why the reload samples stopped, if one failed: the runtime rows measured before it are kept. */
  reloadFailure?: string
  /**
   * CPU milliseconds (user + system) per path change over the runtime changes after the first, of `hapedge serve` (the commit, the
   * agent's reads and report) and of the agent process (pull, plan, runtime API, install): what grows with the cluster,
   * read on a machine whose shared cores make the wall times drift.
   */
  cpuPerChange: { serve: number; agent: number }
  /**
   * The same for the first change, apart: the agent process has just started, its node cache empty, and fetches the nodes
   * on the paths to what changed (a changed map is the installed file with its changed lines put in, not its every chunk).
   */
  cpuFirstChange: { serve: number; agent: number }
  /** The light steady client's requests to a route there throughout, and its answers from anything but that route's backend. */
  steady: { requests: number; wrong: number }
}

/** The sizes the convergence rows run at: convergence should not grow with the cluster. */
export const CONVERGENCE_BACKGROUNDS = [200, 20_000] as const
/** How long a change may take to serve before the run fails, rather than waiting forever on an agent that failed. */
const SERVED_WITHIN_MS = 120_000
/** The steady client's pause between requests: light load, not a flood that would slow HAProxy. */
const STEADY_PAUSE_MS = 10

/** A run of the convergence rows: each size's figures, and their ratio change by change. */
export interface ConvergenceRun {
  /** Per background size, smallest first. */
  sizes: Convergence[]
  /** Turn by turn, the largest size's path change against the smallest's in the same turn, less 1: their median (both applied at runtime). */
  ratio: number
}

/**
 * From the event posted to the new route answering through HAProxy, beside each of
 * `backgrounds` Ingresses of a synthetic cluster, on a stack per size (hapedge serve, the agent
 * process, HAProxy) all up at once. The path changes take turns across the sizes, change by
 * change (which goes first alternates): a shared machine's drift moved a whole run by more than
 * the ratio it looks for (beside 200 Ingresses, 41 ms in one run and 65 ms in another), and
 * here it meets every size in the same minutes. Then each stack's reloads, in turn.
 */
export async function measureConvergence(
  samples: number,
  backgrounds: readonly number[] = CONVERGENCE_BACKGROUNDS,
  // A reload of 20,000 Ingresses' configuration takes seconds each: three show its cost.
  reloadsBeside: (background: number) => number = (background) => (background > 1_000 ? 3 : Math.max(3, Math.ceil(samples / 4))),
): Promise<ConvergenceRun> {
  const stacks: ConvergenceStack[] = []
  try {
    for (const background of backgrounds) stacks.push(await convergenceStack(background, reloadsBeside(background)))
    const turns: (number | undefined)[][] = stacks.map(() => [])
    for (let n = 0; n < samples; n++) {
      if (n === 1) for (const stack of stacks) stack.markCpu()
      for (const stack of turnOrder(n, stacks)) turns[stacks.indexOf(stack)]![n] = await stack.pathChange(n)
    }
    for (const stack of stacks) stack.markCpu()
    const sizes: Convergence[] = []
    for (const stack of stacks) sizes.push(await stack.finish())
    return { sizes, ratio: turnRatio(turns[0]!, turns.at(-1)!) }
  } finally {
    for (const stack of stacks) await stack.stop()
  }
}

interface ConvergenceStack {
  /** Path change `n` (one path more, to an existing backend): its time to served, undefined if the agent did not apply it at runtime. */
  pathChange(n: number): Promise<number | undefined>
  /** Marks the processes' CPU time: at the start, after the first change, after the last. */
  markCpu(): void
  /** The reloads, then the figures. */
  finish(): Promise<Convergence>
  stop(): Promise<void>
}

/**
 * A stack beside `background` Ingresses, its first generation by one resync: a path added to
 * an existing backend (a map entry, applied at runtime) and a path to a new Service (a new
 * backend: a reload). A new path leads to another backend than `/` (whose prefix also matches
 * it), so that only the new route answers from it. Nothing but the function's push to the
 * agent's `--listen` address tells the agent; a light steady client requests a route that stays
 * throughout and counts any other answer.
 */
async function convergenceStack(background: number, reloads: number): Promise<ConvergenceStack> {
  const shop = new ShopIngress()
  const pools = { web: ['web-1'], added: ['added-1'], ...Object.fromEntries(Array.from({ length: reloads }, (_, n) => [`new-${n}`, [`new-${n}`]])) }
  // The first generation by one resync (PUT …/objects) before HAProxy starts: the background, and the route the changes touch.
  const stack = await startEdgeStack(
    pools,
    async ({ backends, served, token }) => {
      const objects = [
        ...syntheticCluster(background, seededRandom(background)),
        service('web'),
        endpointSlice('web', [backends.get('web-1')!.host], [{ port: backends.get('web-1')!.port }]),
        service('added'),
        endpointSlice('added', [backends.get('added-1')!.host], [{ port: backends.get('added-1')!.port }]),
        shop.object(),
      ]
      await sendWrite(served.url, { id: 'edge', token }, { objects })
    },
    // Not at stop: the next run's server, committing at 20,000 Ingresses, would pay for removing this one's files (see removeAtExit).
    { removeRoot: removeAtExit },
  )
  const agent = await readyAgent(stack).catch(async (error: unknown) => {
    await stack.stop()
    throw error
  })
  const status = async () => (await (await fetch(`${agent.url}/status`)).json()) as AgentStatus
  const steady = steadyClient(() => request(`http://127.0.0.1:${stack.httpPort}/`, { headers: { host: 'shop.test' } }).then(answeredBy), 'web-1')
  const until = async (path: string, backend: string) => {
    const deadline = performance.now() + SERVED_WITHIN_MS
    for (;;) {
      const answer = answeredBy(await request(`http://127.0.0.1:${stack.httpPort}${path}`, { headers: { host: 'shop.test' } }))
      if (answer === backend) return
      if (performance.now() > deadline)
        throw new Error(`${path} still answers ${answer}, not ${backend}, after ${SERVED_WITHIN_MS} ms (agent: ${(await status()).lastError ?? 'no error'})`)
      await new Promise((resolve) => setTimeout(resolve, 1))
    }
  }
  const change = async (events: { type: 'MODIFIED'; object: unknown }[], path: string, backend: string) => {
    const started = performance.now()
    const { generation } = await stack.send(events)
    const committed = performance.now() - started
    await until(path, backend)
    const ms = performance.now() - started
    // The agent reports the generation once it is applied; one it rolled back is never reported, so wait a bounded time.
    const reported = performance.now() + SERVED_WITHIN_MS
    for (;;) {
      const now = await status()
      if (now.lastError) throw new Error(now.lastError)
      if (now.generation === generation) return { ms, committed, applied: now.applied }
      if (performance.now() > reported) throw new Error(`generation ${generation} not reported applied after ${SERVED_WITHIN_MS} ms (agent: no error)`)
      await new Promise((resolve) => setTimeout(resolve, 2))
    }
  }
  const runtime: number[] = []
  const committed: number[] = []
  const afterCommit: number[] = []
  const cpu = () => ({ serve: cpuSeconds(stack.served.process.pid!), agent: cpuSeconds(agent.pid!) })
  const cpuMarks = [cpu()]
  let pathChanges = 0
  return {
    async pathChange(n) {
      pathChanges++
      const result = await change([{ type: 'MODIFIED', object: shop.withPath(`/r${n}`) }], `/r${n}/x`, 'added-1')
      if (result.applied !== 'runtime') return undefined
      runtime.push(result.ms)
      committed.push(result.committed)
      afterCommit.push(result.ms - result.committed)
      return result.ms
    },
    markCpu() {
      cpuMarks.push(cpu())
    },
    async finish() {
      const [start, afterFirst = start, end = afterFirst] = cpuMarks as [ReturnType<typeof cpu>, ...ReturnType<typeof cpu>[]]
      const perChange = (from: ReturnType<typeof cpu>, to: ReturnType<typeof cpu>, changes: number) => ({
        serve: round(((to.serve - from.serve) * 1000) / Math.max(1, changes), 1),
        agent: round(((to.agent - from.agent) * 1000) / Math.max(1, changes), 1),
      })
      const reload: number[] = []
      let reloadFailure: string | undefined
      for (let n = 0; n < reloads && reloadFailure === undefined; n++) {
        const name = `new-${n}`
        const backend = stack.backends.get(name)!
        const result = await change(
          [service(name), endpointSlice(name, [backend.host], [{ port: backend.port }]), shop.withPath(`/${name}`, name)].map((object) => ({
            type: 'MODIFIED' as const,
            object,
          })),
          `/${name}/x`,
          name,
        ).catch((error: Error) => error)
        if (result instanceof Error) reloadFailure = result.message
        else if (result.applied === 'reload') reload.push(result.ms)
      }
      return {
        background,
        committed: latency(committed),
        afterCommit: latency(afterCommit),
        runtime: latency(runtime),
        reload: latency(reload),
        ...(reloadFailure === undefined ? {} : { reloadFailure }),
        cpuPerChange: perChange(afterFirst, end, pathChanges - 1),
        cpuFirstChange: perChange(start, afterFirst, 1),
        steady: await steady.stop(),
      }
    },
    async stop() {
      await steady.stop()
      await stack.stop()
    },
  }
}

/**
 * The real `hapedge agent` process, as deployed beside HAProxy, once the function has its report of where it takes pushes.
 * In a process of its own, its work (installing a generation's files, its heap) is not done on the event loop of the client
 * that measures, which in one process delayed the client's requests at 20,000 Ingresses.
 */
async function readyAgent(stack: EdgeStack): Promise<AgentProcess> {
  const agent = await stack.agentProcess()
  await eventually(
    'the agent reporting where it takes pushes',
    async () => {
      const response = await fetch(`${stack.served.url}/v1/clusters/edge/agents`, { headers: { authorization: `Bearer ${stack.token}` } })
      return ((await response.json()) as { agents: { notifyUrl: string | null }[] }).agents.some((report) => report.notifyUrl)
    },
    30_000,
  )
  return agent
}

/** Asks `answer` every STEADY_PAUSE_MS until stopped; counts the requests and the answers other than `expected`. */
function steadyClient(answer: () => Promise<string>, expected: string): { stop(): Promise<Convergence['steady']> } {
  const counts = { requests: 0, wrong: 0 }
  let running = true
  const loop = (async () => {
    while (running) {
      const got = await answer().catch((error: unknown) => String(error))
      counts.requests++
      if (got !== expected) counts.wrong++
      await new Promise((resolve) => setTimeout(resolve, STEADY_PAUSE_MS))
    }
  })()
  return {
    async stop() {
      running = false
      await loop
      return { ...counts }
    },
  }
}
