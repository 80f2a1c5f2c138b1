import { join } from 'node:path'
import { makeTempDir, removeTempDir } from '../test/support/temp-dir.ts'
import { startWranglerDev } from '../test/support/wrangler-dev.ts'
import { groupProcesses, peakRssMb, resetPeakRss, totalCpuSeconds } from './process-group.ts'
import { QUIET_INGRESSES, QuietClient } from './quiet-cluster.ts'
import { seededRandom } from './random.ts'
import { pagedResync, registerCluster, sendWrite, type ClusterClient, type PagedResync } from './serve-client.ts'
import { directoryBytes } from './serve-meter.ts'
import { latency, round, type Latency } from './stats.ts'
import { syntheticCluster, type KubeObjectLiteral } from './synthetic-cluster.ts'

/** Into an empty cluster, then the same list again (what the forwarder sends every `--resync`, after a 410 and after a refused batch). */
export type WorkerdResyncKind = 'workerd-resync-full' | 'workerd-resync-noop'

/** The session's calls by kind (see PagedResync), then the figures measured around it. */
export interface WorkerdResyncRow extends Omit<PagedResync, 'answer'> {
  size: number
  objects: number
  change: WorkerdResyncKind
  seconds: number
  /** CPU time (user + system) of wrangler dev's workerd processes meanwhile: the figure to compare on a shared machine. */
  workerd_cpu_seconds: number
  /** The largest resident set of a workerd process meanwhile (its runtime and every isolate together). */
  workerd_rss_peak_mb: number
  committed: boolean
  generation: number | null
  /** Growth of wrangler's local R2 directory (the quiet cluster's events included). */
  stored_bytes: number
  quiet_p50_ms: number
  quiet_p95_ms: number
  quiet_max_ms: number
  quiet_samples: number
  /** The quiet cluster's events sent again (503, or a connection closed as it went out): their wait is in the event's time. */
  quiet_retries: number
  /** The quiet cluster's events that failed meanwhile, and the first reasons. */
  quiet_errors: number
  quiet_error_reasons: string[]
  /** Why the resync did not finish, or finished wrongly (the no-op committed). */
  error?: string
}

export interface WorkerdResyncResult {
  size: number
  objects: number
  /** The quiet cluster's events with nothing else running. */
  quietAlone: Latency
  rows: WorkerdResyncRow[]
}

const QUIET_ALONE_EVENTS = 40

/**
 * How long a resync of `size` Ingresses may take before the row says it did not finish: 45
 * minutes at 20,000 (about seven times what it took on two busy cores), at least 10. A Worker
 * that hangs would otherwise hold the benchmark for as long as the forwarder's retries last.
 */
function deadline(size: number): Promise<never> {
  const minutes = Math.max(10, (45 * size) / 20_000)
  return new Promise((_, reject) => setTimeout(() => reject(new Error(`did not finish within ${minutes} minutes`)), minutes * 60_000).unref())
}

/**
 * A paged resync through `wrangler dev` (the Worker of wrangler.toml in workerd, on local R2),
 * sent by the forwarder's own code: `size` Ingresses into an empty cluster, then the same list
 * again, each with its time, its calls, workerd's CPU time and peak resident set, and the
 * one-Ingress events of another, small cluster of the same Worker meanwhile. What issue 19 asks
 * of a function: a large resync finishes within a Worker's limits, one bounded request at a time,
 * and other clusters are answered meanwhile.
 */
export async function measureWorkerdResync(size: number): Promise<WorkerdResyncResult> {
  const objects = syntheticCluster(size, seededRandom(size))
  const root = await makeTempDir('hapedge-bench-workerd')
  const dev = await startWranglerDev(root)
  let quiet: QuietClient | undefined
  try {
    const quietCluster = await registerCluster(dev.url, dev.adminToken, 'quiet')
    await sendWrite(dev.url, quietCluster, { objects: syntheticCluster(QUIET_INGRESSES, seededRandom(7)) })
    quiet = new QuietClient(dev.url, quietCluster)
    const quietAlone = latency(await quiet.alone(QUIET_ALONE_EVENTS))
    const big = await registerCluster(dev.url, dev.adminToken, 'big')
    const rows: WorkerdResyncRow[] = []
    for (const change of ['workerd-resync-full', 'workerd-resync-noop'] as const) {
      const row = await resyncRow({ size, change, objects, big, quiet, url: dev.url, pgid: dev.pid, state: join(root, 'state'), ended: dev.ended })
      console.error(
        `  ${change}: ${row.error ?? `${row.seconds} s (${row.workerd_cpu_seconds} s of workerd's CPU), ${row.requests} requests (${row.pages} pages, ${row.finishes} finishes, ${row.accepted} answered 202), quiet p95 ${row.quiet_p95_ms} ms, max ${row.quiet_max_ms} ms`}`,
      )
      rows.push(row)
      // The no-op starts from what the full resync left: without it, there is nothing to measure.
      if (row.error) {
        console.error(`  wrangler dev's last lines:\n${dev.output().trim().split('\n').slice(-20).join('\n')}`)
        break
      }
    }
    return { size, objects: objects.length, quietAlone, rows }
  } finally {
    await quiet?.close()
    await dev.stop()
    await removeTempDir(root)
  }
}

/** One paged resync of `objects` into the cluster `big`, with the quiet cluster's events beside it. */
async function resyncRow(run: {
  size: number
  change: WorkerdResyncKind
  objects: KubeObjectLiteral[]
  url: string
  big: ClusterClient
  quiet: QuietClient
  /** wrangler's process group, in which its workerd processes run. */
  pgid: number
  /** wrangler's local R2 directory. */
  state: string
  /** Rejects when wrangler dev exits. */
  ended: Promise<never>
}): Promise<WorkerdResyncRow> {
  const workerd = groupProcesses(run.pgid, 'workerd')
  const storedBefore = await directoryBytes(run.state)
  const cpuBefore = totalCpuSeconds(workerd)
  resetPeakRss(workerd)
  const stopQuiet = run.quiet.start()
  const started = performance.now()
  let error: string | undefined
  const resync = await Promise.race([pagedResync(run.url, run.big, run.objects), run.ended, deadline(run.size)]).catch((failure: Error) => {
    error = failure.message
    return undefined
  })
  const seconds = (performance.now() - started) / 1000
  const cpu = totalCpuSeconds(workerd) - cpuBefore
  const rss = peakRssMb(workerd)
  const { times, errors, retries } = await stopQuiet()
  const quiet = latency(times)
  if (resync && run.change === 'workerd-resync-noop' && resync.answer.committed) error = `the same list again committed generation ${resync.answer.generation}`
  const row: WorkerdResyncRow = {
    size: run.size,
    objects: run.objects.length,
    change: run.change,
    seconds: round(seconds, 1),
    workerd_cpu_seconds: round(cpu, 1),
    workerd_rss_peak_mb: round(rss, 1),
    ...(resync ? callsOf(resync) : { requests: 0, pages: 0, finishes: 0, accepted: 0, failed: 0, failures: [] }),
    committed: resync?.answer.committed ?? false,
    generation: resync?.answer.generation ?? null,
    stored_bytes: (await directoryBytes(run.state)) - storedBefore,
    quiet_p50_ms: quiet.p50,
    quiet_p95_ms: quiet.p95,
    quiet_max_ms: times.length > 0 ? round(Math.max(...times), 1) : Number.NaN,
    quiet_samples: quiet.samples,
    quiet_retries: retries,
    quiet_errors: errors.length,
    quiet_error_reasons: [...new Set(errors)].slice(0, 3),
  }
  if (error) row.error = error
  return row
}

const callsOf = ({ answer: _, ...calls }: PagedResync) => calls
