import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { join } from 'node:path'
import { encodeBase64url } from '../core/crypto/base64url.ts'
import { startServe, type Served } from '../test/support/serve-process.ts'
import { makeTempDir, removeTempDir } from '../test/support/temp-dir.ts'
import { ChangeSource } from './changes.ts'
import { seededRandom } from './random.ts'
import { registerCluster, sendWrite, type ClusterClient } from './serve-client.ts'
import { latency, round, type Latency } from './stats.ts'
import { syntheticCluster, type KubeObjectLiteral } from './synthetic-cluster.ts'

export interface FleetOptions {
  clusters: number
  ingresses: number
  /** One-Ingress events sent at random clusters. */
  events: number
}

/** Cores busy on average over a phase: the serve process's, and this client's. */
export interface CpuUse {
  server: number
  /** The part of `server` spent in the kernel for it: on local disk, mostly the fsyncs' journal work. */
  serverKernel: number
  client: number
}

/** A `GET /v1/fleet`: measured by the client, and as the server says it answered. */
export interface FleetView {
  client: Latency
  answered: Latency
}

export interface FleetResult extends FleetOptions {
  cpus: number
  objectsPerCluster: number
  inFlight: number
  /** Each cluster's resync (`PUT …/objects`, the first generation), `inFlight` clusters at a time. */
  load: { seconds: number; perCluster: Latency }
  /** One event at a time, each at a random cluster. */
  oneAtATime: Latency
  /** `events` events at random clusters, `inFlight` at a time. */
  spread: { latency: Latency; seconds: number; retries: number }
  /** One cluster's events, one at a time, with nothing else running and while another cluster is flooded. */
  quiet: { alone: Latency; beside: Latency; afterFleetView: Latency; cpuAlone: CpuUse; cpuBeside: CpuUse }
  noisy: { writers: number; batch: number; events: number; seconds: number; request: Latency; retries: number }
  fleetView: { cold: { clientMs: number; answeredInMs: number }; warm: FleetView; whileEventsFlow: FleetView & { events: Latency } }
}

const IN_FLIGHT = 8
const NOISY_WRITERS = 8
const NOISY_BATCH = 50
const QUIET_EVENTS = 100
const FLEET_VIEWS = 20

interface Member extends ClusterClient {
  source: ChangeSource
}

/** Runs `task(0)`, `task(1)`, … `task(count - 1)` with at most `limit` in flight. */
async function inFlight(count: number, limit: number, task: (index: number) => Promise<void>): Promise<void> {
  let next = 0
  const worker = async () => {
    for (let index = next++; index < count; index = next++) await task(index)
  }
  await Promise.all(Array.from({ length: Math.min(limit, count) }, worker))
}

/**
 * Starts counting the CPU time (user and system) of the process `pid` and of this one; the
 * function it returns answers each as cores busy on average since (1 = one core all the time).
 * Read from /proc, so on Linux only; elsewhere the server's share is NaN.
 */
function cpuMeter(pid: number) {
  const ticks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }))
  const server = () => {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
      return { total: (Number(fields[11]) + Number(fields[12])) / ticks, kernel: Number(fields[12]) / ticks }
    } catch {
      return { total: Number.NaN, kernel: Number.NaN }
    }
  }
  const client = () => (process.cpuUsage().user + process.cpuUsage().system) / 1e6
  const from = { at: performance.now(), server: server(), client: client() }
  return (): CpuUse => {
    const seconds = (performance.now() - from.at) / 1000
    const now = server()
    return {
      server: round((now.total - from.server.total) / seconds, 2),
      serverKernel: round((now.kernel - from.server.kernel) / seconds, 2),
      client: round((client() - from.client) / seconds, 2),
    }
  }
}

async function timed<T>(run: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const started = performance.now()
  const value = await run()
  return { ms: performance.now() - started, value }
}

/**
 * Many clusters behind one `hapedge serve` process (local disk, fsync, content sealed under
 * HAPEDGE_SECRET as in production): loading them, events spread over all of them, one quiet
 * cluster's events alone and beside a flooded one, and the admin's fleet view.
 */
export async function measureFleet(options: FleetOptions): Promise<FleetResult> {
  const { clusters: count, ingresses, events } = options
  if (count < 2) throw new Error('the fleet needs at least two clusters: a quiet one and a noisy one')
  const root = await makeTempDir('hapedge-bench-fleet')
  const secret = encodeBase64url(crypto.getRandomValues(new Uint8Array(32)))
  let served: Served | undefined
  try {
    served = await startServe(['--data', join(root, 'data')], { HAPEDGE_SECRET: secret })
    const { url, adminToken } = served
    const random = seededRandom(count * 7919 + ingresses)
    const members: Member[] = []
    const objects: KubeObjectLiteral[][] = []
    for (let i = 0; i < count; i++) {
      const seed = seededRandom(ingresses + i)
      objects.push(syntheticCluster(ingresses, seed))
      members.push({ ...(await registerCluster(url, adminToken, `fleet-${i}`)), source: new ChangeSource(objects[i]!, ingresses, seed) })
    }

    const loadMs: number[] = []
    const loadStarted = performance.now()
    await inFlight(count, IN_FLIGHT, async (i) => {
      const { ms } = await timed(() => sendWrite(url, members[i]!, { objects: objects[i]! }))
      loadMs.push(ms)
    })
    const load = { seconds: round((performance.now() - loadStarted) / 1000, 1), perCluster: latency(loadMs) }
    const objectsPerCluster = objects[0]!.length
    objects.length = 0

    const fleetView = async () => {
      const { ms, value } = await timed(async () => {
        const response = await fetch(`${url}/v1/fleet`, { headers: { authorization: `Bearer ${adminToken}` } })
        if (response.status !== 200) throw new Error(`GET /v1/fleet: ${response.status} ${await response.text()}`)
        return (await response.json()) as { clusters: { id: string; counts: { ingresses: number } }[]; answeredInMs: number }
      })
      const short = value.clusters.filter((cluster) => cluster.counts.ingresses !== ingresses)
      if (value.clusters.length !== count || short.length > 0)
        throw new Error(`GET /v1/fleet: ${value.clusters.length} clusters, ${short.length} without ${ingresses} Ingresses`)
      return { ms, answeredInMs: value.answeredInMs }
    }
    /** Fleet views one after another while `more(calls so far)`. */
    const views = async (more: (calls: number) => boolean) => {
      const client: number[] = []
      const answered: number[] = []
      while (more(client.length)) {
        const { ms, answeredInMs } = await fleetView()
        client.push(ms)
        answered.push(answeredInMs)
      }
      return { client: latency(client), answered: latency(answered) }
    }
    const cold = await fleetView()
    const warm = await views((calls) => calls < FLEET_VIEWS)

    /** A one-Ingress change at `member`: the HTTP round trip of its `POST …/events`. */
    const event = async (member: Member) => {
      const { ms, value } = await timed(() => sendWrite(url, member, { events: member.source.next('ingress-path') }))
      return { ms, retries: value.retries }
    }
    const atRandom = () => members[random.int(0, count - 1)]!

    const oneAtATime: number[] = []
    for (let n = 0; n < Math.min(events, QUIET_EVENTS); n++) oneAtATime.push((await event(atRandom())).ms)

    const spreadMs: number[] = []
    let spreadRetries = 0
    const spreadStarted = performance.now()
    await inFlight(events, IN_FLIGHT, async () => {
      const { ms, retries } = await event(atRandom())
      spreadMs.push(ms)
      spreadRetries += retries
    })
    const spread = { latency: latency(spreadMs), seconds: round((performance.now() - spreadStarted) / 1000, 1), retries: spreadRetries }

    const [quietOne, noisyOne] = members as [Member, Member]
    const quietly = async (samples: number, before?: () => Promise<unknown>) => {
      const ms: number[] = []
      for (let n = 0; n < samples; n++) {
        await before?.()
        ms.push((await event(quietOne)).ms)
      }
      return latency(ms)
    }
    let meter = cpuMeter(served.process.pid!)
    const alone = await quietly(QUIET_EVENTS)
    const cpuAlone = meter()

    let flooding = true
    let noisyEvents = 0
    let noisyRetries = 0
    const noisyMs: number[] = []
    const noisyStarted = performance.now()
    const writers = Array.from({ length: NOISY_WRITERS }, async () => {
      while (flooding) {
        const batch = Array.from({ length: NOISY_BATCH }, () => noisyOne.source.next('ingress-path')).flat()
        const { ms, value } = await timed(() => sendWrite(url, noisyOne, { events: batch }))
        noisyMs.push(ms)
        noisyEvents += batch.length
        noisyRetries += value.retries
      }
    })
    // The flood is under way before the quiet cluster's first event.
    while (noisyMs.length === 0) await new Promise((resolve) => setTimeout(resolve, 5))
    meter = cpuMeter(served.process.pid!)
    const beside = await quietly(QUIET_EVENTS)
    const cpuBeside = meter()
    flooding = false
    await Promise.all(writers)
    const noisySeconds = (performance.now() - noisyStarted) / 1000
    const noisy = {
      writers: NOISY_WRITERS,
      batch: NOISY_BATCH,
      events: noisyEvents,
      seconds: round(noisySeconds, 1),
      request: latency(noisyMs),
      retries: noisyRetries,
    }

    const afterFleetView = await quietly(FLEET_VIEWS, fleetView)

    let flowing = true
    const flowMs: number[] = []
    const flow = inFlight(Math.max(events / 5, IN_FLIGHT * 10), IN_FLIGHT, async () => {
      flowMs.push((await event(atRandom())).ms)
    }).finally(() => (flowing = false))
    const viewsMeanwhile = await views(() => flowing)
    await flow
    const whileEventsFlow = { ...viewsMeanwhile, events: latency(flowMs) }

    return {
      ...options,
      cpus: availableParallelism(),
      objectsPerCluster,
      inFlight: IN_FLIGHT,
      load,
      oneAtATime: latency(oneAtATime),
      spread,
      quiet: { alone, beside, afterFleetView, cpuAlone, cpuBeside },
      noisy,
      fleetView: { cold: { clientMs: round(cold.ms, 1), answeredInMs: cold.answeredInMs }, warm, whileEventsFlow },
    }
  } finally {
    await served?.stop()
    await removeTempDir(root)
  }
}
