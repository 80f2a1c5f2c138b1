import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { startServe } from '../test/support/serve-process.ts'
import { makeTempDir } from '../test/support/temp-dir.ts'
import { sentBytes } from '../processes/forwarder/paged-resync.ts'
import { ChangeSource } from './changes.ts'
import { removeAtExit } from './removed-at-exit.ts'
import { seededRandom } from './random.ts'
import { QUIET_INGRESSES, QuietClient } from './quiet-cluster.ts'
import { clusterRequest, eventLoopBlockedMs, listBody, pagedResync, registerCluster, sendWrite, type ClusterClient } from './serve-client.ts'
import { cpuSeconds, directoryBytes, systemCpuSeconds, TracedHeap, writtenBytes } from './serve-meter.ts'
import { latency, median, round, type Latency } from './stats.ts'
import { syntheticCluster, type KubeObjectLiteral } from './synthetic-cluster.ts'

export const RESYNC_KINDS = ['resync-full', 'resync-noop', 'resync-1pct'] as const
/** Each kind beside the quiet cluster's events, and the full resync on a server of its own with nothing else running (what fairness adds is the difference). */
export type ResyncKind = (typeof RESYNC_KINDS)[number] | 'resync-full-alone'
/** `put`: the whole list in one `PUT …/objects`; `paged`: a resync session (begin, pages, finish). */
export type ResyncPath = 'put' | 'paged'

export interface ResyncRow {
  size: number
  objects: number
  path: ResyncPath
  change: ResyncKind
  /** Objects the list changed (the whole list into an empty cluster; none for the no-op). */
  changed_objects: number
  seconds: number
  /** CPU time (user + system) the serve process spent meanwhile: the figure to compare on a shared machine. */
  cpu_seconds: number
  /** Of that, the system time: mostly the file system's (files created just after many were removed cost this disk ten times more), which the code does not set. */
  cpu_system_seconds: number
  /** Requests the resync took: 1 for a PUT; begin, pages and finish calls for a session. */
  requests: number
  /** Growth of the data directory. */
  stored_bytes: number
  /** Bytes the serve process handed to write() meanwhile (files, their temp copies, sockets). */
  written_bytes: number
  heap_peak_mb: number
  /** The longest the server's event loop was blocked during the resync, by its own sampler: what the quiet cluster's events may wait. */
  loop_blocked_ms: number
  /** The CPU time the server spent in that longest stretch: the figure the machine's load does not move. */
  loop_blocked_cpu_ms: number
  quiet_p50_ms: number
  quiet_p95_ms: number
  quiet_samples: number
  /** Runs that finished, each on fresh servers: the figures above are their medians (a failed run is left out, and named in `error`). */
  runs: number
  /** Each finished run's wall and CPU seconds, in the order they ran: the spread beside the median. */
  seconds_runs: number[]
  cpu_seconds_runs: number[]
  /** Why the resync did not finish: the server's answer or its exit. */
  error?: string
}

export interface HeapCheck {
  objects: number
  /** The Ingresses among the objects: the rest are their Services, EndpointSlices, TLS Secrets and the IngressClass. */
  ingresses: number
  heapLimitMb: number
  finished: boolean
  seconds: number
  heapPeakMb: number
  /** The serve process's CPU time meanwhile (user + system): the wall time says as much about the machine's load. */
  cpuSeconds: number
  /** Begin, pages and finish calls. */
  requests: number
  error?: string
}

export interface ResyncResult {
  size: number
  objects: number
  /** The quiet cluster's events with nothing else running, per path's server (every run's samples together). */
  quietAlone: Partial<Record<ResyncPath, Latency>>
  /** One row per path and kind: the median of its runs. */
  rows: ResyncRow[]
  /** The path the forwarder takes with this list to this server: `put` where the server answers that it takes the list whole. */
  forwarderPath: ResyncPath
}

/** One run's figures for a row: what resyncRow measures. */
type ResyncRun = Omit<ResyncRow, 'runs' | 'seconds_runs' | 'cpu_seconds_runs'>

const QUIET_ALONE_EVENTS = 40
/** The body limit of `hapedge serve` (README), which a single-request resync's list must fit. */
const PUT_BODY_MIB = 32
const CHANGED_SHARE = 0.01

const TRACE_GC = fileURLToPath(new URL('./trace-gc.mjs', import.meta.url))

/** `hapedge serve` on a fresh data directory, its heap traced and its exit turned into a rejection. */
async function startTraced(nodeOptions: string[] = []) {
  const root = await makeTempDir('hapedge-bench-resync')
  const data = join(root, 'data')
  const served = await startServe(['--data', data], { NODE_OPTIONS: [process.env.NODE_OPTIONS ?? '', '--import', TRACE_GC, ...nodeOptions].join(' ').trim() })
  const heap = new TracedHeap(served.process.stdout!)
  let stderr = ''
  served.process.stderr!.on('data', (chunk: Buffer) => (stderr = (stderr + chunk).slice(-2000)))
  const exited = new Promise<never>((_, reject) =>
    served.process.once('exit', (code, signal) =>
      reject(new Error(`hapedge serve exited (${signal ?? code}): ${stderr.trim().split('\n').slice(-3).join(' / ')}`)),
    ),
  )
  exited.catch(() => {})
  const close = async () => {
    // A server that died (its heap ran out: SIGABRT) has no exit left to wait for.
    if (served.process.exitCode === null && served.process.signalCode === null) await served.stop()
    // Not now: the next server's files would pay for the removal of these (see removeAtExit).
    removeAtExit(root)
  }
  return { served, data, heap, exited, close }
}

/** The list again with 1% of its objects changed (Ingresses given a new path), and how many that is. */
function changedList(objects: KubeObjectLiteral[], size: number): { items: KubeObjectLiteral[]; changed: number } {
  const source = new ChangeSource(objects, size, seededRandom(size * 31))
  const changed = new Set<unknown>()
  while (changed.size < Math.round(objects.length * CHANGED_SHARE)) {
    const [event] = source.next('ingress-path')
    const { namespace, name } = event!.object.metadata as { namespace: string; name: string }
    changed.add(`${namespace}/${name}`)
  }
  return { items: [...source.objects()], changed: changed.size }
}

/**
 * Resyncs through the real `hapedge serve` on local disk, one server per path: a cluster of
 * `size` Ingresses resynced into an empty cluster, with the same list, and with 1% of its
 * objects changed; each with its time, the bytes it stored and wrote, the server's peak heap,
 * and the one-Ingress events of another, small cluster of the same server meanwhile. All of it
 * `runs` times, on fresh servers each time: each row is the median of its runs, with their spread
 * (one resync is not a figure: on a shared machine two runs of the same commit differ by a second).
 */
export async function measureResync(size: number, paths: readonly ResyncPath[], runs = 1): Promise<ResyncResult> {
  const objects = syntheticCluster(size, seededRandom(size))
  const lists: Record<(typeof RESYNC_KINDS)[number], { items: KubeObjectLiteral[]; changed: number }> = {
    'resync-full': { items: objects, changed: objects.length },
    'resync-noop': { items: objects, changed: 0 },
    'resync-1pct': changedList(objects, size),
  }
  // One request carries at most the function's body limit (README: 32 MiB); a larger list resyncs by pages, as the forwarder sends it.
  const listMib = listBody(objects).length / 1024 / 1024
  if (paths.includes('put') && listMib > PUT_BODY_MIB)
    console.error(
      `  put: skipped, the list is ${round(listMib, 1)} MiB, more than the ${PUT_BODY_MIB} MiB one request may carry: a cluster this large resyncs by pages`,
    )
  const sent = paths.filter((path) => path !== 'put' || listMib <= PUT_BODY_MIB)
  let forwarderPath: ResyncPath = 'paged'
  const measured: ResyncRun[] = []
  const quietAlone: Partial<Record<ResyncPath, number[]>> = {}
  const report = (row: ResyncRun, run: number) => {
    measured.push(row)
    console.error(
      `  ${runs > 1 ? `run ${run + 1}/${runs} ` : ''}${row.path} ${row.change}: ${row.error ?? `${row.seconds} s (${row.cpu_seconds} s CPU, ${row.cpu_system_seconds} s of it system), loop blocked at most ${row.loop_blocked_ms} ms (${row.loop_blocked_cpu_ms} ms CPU), quiet p95 ${Number.isNaN(row.quiet_p95_ms) ? 'n/a' : `${row.quiet_p95_ms} ms`}`}`,
    )
    return row
  }
  for (let run = 0; run < runs; run++)
    for (const path of sent) {
      const lone = await startTraced()
      try {
        const cluster = await registerCluster(lone.served.url, lone.served.adminToken, `alone-${path}`)
        if (run === 0 && path === sent[0]) forwarderPath = await pathOfForwarder(lone.served.url, cluster, objects)
        report(await resyncRow(lone, cluster, { size, path, change: 'resync-full-alone', items: objects, changed: objects.length }), run)
      } finally {
        await lone.close()
      }
      const server = await startTraced()
      let quiet: QuietClient | undefined
      try {
        const { url, adminToken } = server.served
        const quietCluster = await registerCluster(url, adminToken, 'quiet')
        await sendWrite(url, quietCluster, { objects: syntheticCluster(QUIET_INGRESSES, seededRandom(7)) })
        quiet = new QuietClient(url, quietCluster)
        quietAlone[path] = [...(quietAlone[path] ?? []), ...(await quiet.alone(QUIET_ALONE_EVENTS))]

        const big = await registerCluster(url, adminToken, `big-${path}`)
        for (const change of RESYNC_KINDS) {
          const row = report(await resyncRow(server, big, { size, path, change, ...lists[change] }, quiet), run)
          // The rest of the path starts from what this one left: without it, there is nothing to measure.
          if (row.error) break
        }
      } finally {
        await quiet?.close()
        await server.close()
      }
    }
  const rows = sent.flatMap((path) =>
    (['resync-full-alone', ...RESYNC_KINDS] as const).flatMap((change) => {
      const ofRow = measured.filter((row) => row.path === path && row.change === change)
      return ofRow.length > 0 ? [medianRow(ofRow)] : []
    }),
  )
  return {
    size,
    objects: objects.length,
    quietAlone: Object.fromEntries(Object.entries(quietAlone).map(([path, ms]) => [path, latency(ms)])),
    rows,
    forwarderPath,
  }
}

/** What the forwarder asks before a resync larger than a page: whether the server takes the list whole (one PUT) or in pages. */
async function pathOfForwarder(url: string, cluster: ClusterClient, objects: readonly KubeObjectLiteral[]): Promise<ResyncPath> {
  const size = { items: objects.length, bytes: objects.reduce((sum, item) => sum + sentBytes(item), 0) }
  const { status, answer } = await clusterRequest<{ whole?: true }>(url, cluster, 'POST', 'resync', JSON.stringify(size))
  if (status !== 200 && status !== 201) throw new Error(`POST …/resync with the list's size: ${status} ${JSON.stringify(answer)}`)
  return answer.whole ? 'put' : 'paged'
}

/** The runs of one row as one: each figure the median of the finished runs', the first failure named; a row none of whose runs finished is the first run's. */
function medianRow(runs: readonly ResyncRun[]): ResyncRow {
  const finished = runs.filter((run) => !run.error)
  const failed = runs.filter((run) => run.error)
  const error = failed.length > 0 ? `${failed.length} of ${runs.length} runs failed: ${failed[0]!.error}` : undefined
  const base = {
    ...(finished[0] ?? runs[0]!),
    runs: finished.length,
    seconds_runs: finished.map((run) => run.seconds),
    cpu_seconds_runs: finished.map((run) => run.cpu_seconds),
  }
  if (finished.length === 0) return { ...base, error }
  const of = (figure: MedianFigure) => median(finished.map((run) => run[figure]))
  const row: ResyncRow = { ...base, ...(Object.fromEntries(MEDIAN_FIGURES.map((figure) => [figure, of(figure)])) as Pick<ResyncRow, MedianFigure>) }
  if (error) row.error = error
  return row
}

/** The figures a row gives as the median of its runs (each on its own: the median run by time need not be the median by heap). */
const MEDIAN_FIGURES = [
  'seconds',
  'cpu_seconds',
  'cpu_system_seconds',
  'requests',
  'stored_bytes',
  'written_bytes',
  'heap_peak_mb',
  'loop_blocked_ms',
  'loop_blocked_cpu_ms',
  'quiet_p50_ms',
  'quiet_p95_ms',
  'quiet_samples',
] as const satisfies readonly (keyof ResyncRun)[]
type MedianFigure = (typeof MEDIAN_FIGURES)[number]

type TracedServe = Awaited<ReturnType<typeof startTraced>>
type Cluster = Awaited<ReturnType<typeof registerCluster>>

/** One resync of `items` into `cluster`, sent as `path` says, with the quiet cluster's events beside it when given. */
async function resyncRow(
  server: TracedServe,
  cluster: Cluster,
  run: { size: number; path: ResyncPath; change: ResyncKind; items: KubeObjectLiteral[]; changed: number },
  quiet?: QuietClient,
): Promise<ResyncRun> {
  const { url } = server.served
  const body = run.path === 'put' ? listBody(run.items) : undefined
  const storedBefore = await directoryBytes(server.data)
  const writtenBefore = writtenBytes(server.served.process.pid!)
  const cpuBefore = cpuSeconds(server.served.process.pid!)
  const systemBefore = systemCpuSeconds(server.served.process.pid!)
  server.heap.reset()
  // Read once to start the window the resync is measured in.
  await eventLoopBlockedMs(url)
  const stopQuiet = quiet ? quiet.start() : async () => ({ times: [], errors: [], retries: 0 })
  const started = performance.now()
  let requests = 1
  let error: string | undefined
  try {
    if (body !== undefined) {
      const answered = await Promise.race([clusterRequest(url, cluster, 'PUT', 'objects', body), server.exited])
      if (answered.status !== 200) error = `${answered.status} ${JSON.stringify(answered.answer).slice(0, 200)}`
    } else {
      requests = (await Promise.race([pagedResync(url, cluster, run.items), server.exited])).requests
    }
  } catch (failure) {
    error = (failure as Error).message
  }
  const seconds = (performance.now() - started) / 1000
  const cpu = cpuSeconds(server.served.process.pid!) - cpuBefore
  const system = systemCpuSeconds(server.served.process.pid!) - systemBefore
  const blocked = await eventLoopBlockedMs(url)
  const quietLatency = await stopQuiet().then(
    ({ times, errors }) => {
      if (errors.length > 0) console.error(`  the quiet cluster's events: ${errors.length} failed, the first: ${errors[0]}`)
      return latency(times)
    },
    () => latency([]),
  )
  const row: ResyncRun = {
    size: run.size,
    objects: run.items.length,
    path: run.path,
    change: run.change,
    changed_objects: run.changed,
    seconds: round(seconds, 2),
    cpu_seconds: round(cpu, 2),
    cpu_system_seconds: round(system, 2),
    requests,
    stored_bytes: (await directoryBytes(server.data)) - storedBefore,
    written_bytes: writtenBytes(server.served.process.pid!) - writtenBefore,
    heap_peak_mb: round(server.heap.phase().peakMb, 1),
    loop_blocked_ms: round(blocked.wall, 1),
    loop_blocked_cpu_ms: round(blocked.cpu, 1),
    quiet_p50_ms: quietLatency.p50,
    quiet_p95_ms: quietLatency.p95,
    quiet_samples: quietLatency.samples,
  }
  if (error) row.error = error
  return row
}

/**
 * The paged resync of `objects` objects into an empty cluster, with the serve process's heap
 * limited to `heapLimitMb` (`--max-old-space-size`): whether it finishes, and its peak heap.
 */
export async function measureResyncHeap(objects: number, heapLimitMb = 64): Promise<HeapCheck> {
  // About two objects per Ingress (its Services, EndpointSlices and TLS Secrets): grown until there are enough.
  let ingresses = Math.ceil(objects / 2)
  let items = syntheticCluster(ingresses, seededRandom(objects))
  while (items.length < objects) items = syntheticCluster((ingresses = Math.ceil((ingresses * objects) / items.length) + 1), seededRandom(objects))
  const server = await startTraced([`--max-old-space-size=${heapLimitMb}`])
  try {
    const { url, adminToken } = server.served
    const cluster = await registerCluster(url, adminToken, 'heap-check')
    server.heap.reset()
    const started = performance.now()
    const cpuBefore = cpuSeconds(server.served.process.pid!)
    const check: HeapCheck = {
      objects: items.length,
      ingresses: items.filter((item) => item.kind === 'Ingress').length,
      heapLimitMb,
      finished: false,
      seconds: 0,
      heapPeakMb: 0,
      cpuSeconds: 0,
      requests: 0,
    }
    try {
      check.requests = (await Promise.race([pagedResync(url, cluster, items), server.exited])).requests
      check.finished = true
    } catch (failure) {
      check.error = (failure as Error).message
    }
    check.seconds = round((performance.now() - started) / 1000, 1)
    check.cpuSeconds = round(cpuSeconds(server.served.process.pid!) - cpuBefore, 1)
    check.heapPeakMb = round(server.heap.phase().peakMb, 1)
    return check
  } finally {
    await server.close()
  }
}
