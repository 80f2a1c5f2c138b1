import type { Row, SizeResult } from './measure.ts'
import type { ChurnResult } from './churn.ts'
import type { CommitTurns } from './commit-turns.ts'
import type { ConvergenceRun } from './convergence.ts'
import type { FleetResult } from './fleet.ts'
import type { HttpResult } from './http.ts'
import { QUIET_INGRESSES } from './quiet-cluster.ts'
import type { HeapCheck, ResyncPath, ResyncResult, ResyncRow } from './resync.ts'
import type { SealingResult, SealingRow } from './sealing.ts'
import type { StorageResult, StorageRow } from './storage.ts'
import { WORKER_GZIP_LIMITS, type WorkerBundle } from './worker-bundle.ts'
import type { WorkerdResyncResult, WorkerdResyncRow } from './workerd-resync.ts'
import { median, round, type Latency } from './stats.ts'

type Columns<T> = [keyof T, string][]

const columns: Columns<Row> = [
  ['size', 'Ingresses'],
  ['change', 'change'],
  ['incremental_ms_p50', 'incr p50 ms'],
  ['incremental_ms_p95', 'incr p95 ms'],
  ['full_ms_p50', 'full p50 ms'],
  ['ratio', 'ratio'],
  ['files_written', 'blobs/change'],
  ['bytes_written', 'bytes/change'],
  ['metadata_bytes', 'lists+manifest B'],
  ['snapshot_nodes', 'snap nodes'],
  ['snapshot_bytes', 'snap B'],
  ['reload_share', 'reloads'],
  ['heap_peak_mb', 'heap MB'],
]

const storageColumns: Columns<StorageRow> = [
  ['size', 'Ingresses'],
  ['change', 'change'],
  ['objects', 'objects'],
  ['cold_ms_p50', 'cold p50 ms'],
  ['warm_ms_p50', 'warm p50 ms'],
  ['nodes_read', 'nodes read'],
  ['kib_read', 'KiB read'],
  ['load_rounds', 'load rounds'],
  ['nodes_written', 'nodes written'],
  ['blobs_written', 'blobs written'],
  ['kib_written', 'KiB written'],
  ['kib_stored', 'KiB stored'],
]

const sealingColumns: Columns<SealingRow> = [
  ['size', 'Ingresses'],
  ['change', 'change'],
  ['plain_cold_ms_p50', 'plain cold ms'],
  ['sealed_cold_ms_p50', 'sealed cold ms'],
  ['plain_warm_ms_p50', 'plain warm ms'],
  ['sealed_warm_ms_p50', 'sealed warm ms'],
]

type ResyncCells = Omit<ResyncRow, 'error' | 'stored_bytes' | 'written_bytes' | 'seconds_runs' | 'cpu_seconds_runs'> & {
  stored_mib: number | string
  written_mib: number | string
  seconds_spread: string
  cpu_seconds_spread: string
  outcome: string
}

const resyncColumns: Columns<ResyncCells> = [
  ['size', 'Ingresses'],
  ['change', 'change'],
  ['path', 'path'],
  ['objects', 'objects'],
  ['changed_objects', 'changed'],
  ['runs', 'runs'],
  ['seconds', 'seconds'],
  ['seconds_spread', 'spread s'],
  ['cpu_seconds', 'CPU s'],
  ['cpu_seconds_spread', 'CPU spread'],
  ['cpu_system_seconds', 'system s'],
  ['requests', 'requests'],
  ['stored_mib', 'stored MiB'],
  ['written_mib', 'written MiB'],
  ['heap_peak_mb', 'heap peak MB'],
  ['loop_blocked_ms', 'blocked ms'],
  ['loop_blocked_cpu_ms', 'blocked CPU ms'],
  ['quiet_p50_ms', 'quiet p50 ms'],
  ['quiet_p95_ms', 'quiet p95 ms'],
  ['quiet_samples', 'quiet n'],
  ['outcome', 'outcome'],
]

/** The full rebuild's peak heap, with the parts of it that were there before it started. */
const fullHeap = ({ full }: SizeResult) =>
  full.error
    ? `did not finish in a heap of ${full.heapLimitMb} MB: ${full.error}`
    : `peak heap ${round(full.peakMb, 1)} MB under a limit of ${full.heapLimitMb} MB (of which the thread's code ${round(full.baseMb, 1)} MB and the parsed input ${round(full.inputMb, 1)} MB)`

/** A figure's cell: `n/a` for one there was nothing to measure (a quiet p95 with no quiet cluster beside). */
const cell = (value: unknown) => (Number.isNaN(value) ? 'n/a' : String(value))

function table<T>(rows: T[], columns: Columns<T>): string {
  const cells = [columns.map(([, title]) => title), ...rows.map((row) => columns.map(([key]) => cell(row[key])))]
  const widths = columns.map((_, c) => Math.max(...cells.map((line) => line[c]!.length)))
  return cells.map((line) => line.map((cell, c) => (c < 2 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join('  ')).join('\n')
}

const mark = (ok: boolean) => (ok ? 'met    ' : 'NOT met')
/** A ratio less 1 as a signed percentage, to 0.1: +15.9%, -3.5%. */
const percent = (ratio: number) => `${ratio >= 0 ? '+' : ''}${round(ratio * 100, 1)}%`

/** Prints the figures, then each target of the incremental issue beside what was measured. */
export function printReport(results: SizeResult[]): void {
  console.log(
    table(
      results.flatMap((result) => result.rows),
      columns,
    ),
  )
  console.log('')
  for (const result of results) {
    console.log(
      `${result.size} Ingresses (${result.objects} objects): full rebuild p50 ${round(median(result.full.ms), 1)} ms (collecting ${round(median(result.full.collectingMs), 1)} ms), ${fullHeap(result)}; ` +
        `incremental cold build ${round(result.coldBuildMs, 1)} ms; manifest ${result.manifestBytes} bytes`,
    )
  }

  const largest = results[results.length - 1]!
  const smallest = results[0]!
  // The targets are stated at 20,000 Ingresses; larger sizes show how the figures grow beyond.
  const target = results.find((result) => result.size === 20_000) ?? largest
  const oneIngress = target.rows.filter((row) => row.change.startsWith('ingress-'))
  const endpoints = target.rows.find((row) => row.change === 'endpoints-scale')!
  console.log(`\ntargets (at ${target.size} Ingresses):`)
  const minRatio = Math.min(...oneIngress.map((row) => row.ratio))
  const maxBytes = Math.max(...oneIngress.map((row) => row.bytes_written))
  console.log(`  ${mark(minRatio >= 200)} one-Ingress change ≥ 200× faster than the full rebuild: lowest ratio ${minRatio}×`)
  console.log(`  ${mark(maxBytes < 16 * 1024)} one-Ingress change writes < 16 KiB of file content: most ${maxBytes} bytes`)
  console.log(
    `  ${mark(endpoints.files_written <= 2 && endpoints.bytes_written < 16 * 1024)} endpoint change rewrites only the chunks of the Service's backends ` +
      `(one per port reference: by name and by number are two): ${endpoints.files_written} blobs, ${endpoints.bytes_written} bytes per change; ` +
      `applied at runtime in ${Math.round((1 - endpoints.reload_share) * 100)}% of changes (slots are set, added and deleted through the runtime API)`,
  )
  // Issue 20: an annotation's value kept in a map changes at runtime, writing what a path change writes.
  const annotation = target.rows.find((row) => row.change === 'annotation-value')
  const path = target.rows.find((row) => row.change === 'ingress-path')
  if (annotation && path)
    console.log(
      `  ${mark(annotation.reload_share === 0 && annotation.bytes_written <= path.bytes_written)} annotation value change without a reload, writing no more than a path change: ` +
        `reloads ${Math.round(annotation.reload_share * 100)}%, ${annotation.bytes_written} bytes per change (a path change ${path.bytes_written})`,
    )
  const fullP50 = median(target.full.ms)
  console.log(
    `  ${mark(!target.full.error && fullP50 < 1500 && target.full.peakMb < 256)} full rebuild < 1.5 s and < 256 MB: ${round(fullP50, 1)} ms, ${fullHeap(target)}`,
  )
  if (results.length > 1) {
    const slopes = largest.rows.map((row) => {
      const base = smallest.rows.find((candidate) => candidate.change === row.change)!
      return `${row.change} ${round(row.incremental_ms_p50 / base.incremental_ms_p50, 2)}×`
    })
    const worst = Math.max(...largest.rows.map((row, i) => row.incremental_ms_p50 / smallest.rows[i]!.incremental_ms_p50))
    console.log(`  ${mark(worst < 2)} cost per change flat from ${smallest.size} to ${largest.size} (p50 ratio, 1× is flat): ${slopes.join(', ')}`)
  }
}

/** Prints the HTTPRoute rows: one HTTPRoute changed in a cluster served through one Gateway, against its full rebuild. */
export function printHttpRouteReport(results: SizeResult[]): void {
  console.log(`\nHTTPRoutes (a cluster of N HTTPRoutes on one Gateway, no Ingresses):`)
  console.log(
    table(
      results.flatMap((result) => result.rows),
      [['size', 'HTTPRoutes'], ...columns.slice(1), ['status_cpu_ms_p50', 'status CPU ms'], ['status_nodes_p50', 'status nodes']],
    ),
  )
  console.log('')
  for (const result of results) {
    console.log(
      `${result.size} HTTPRoutes (${result.objects} objects): full rebuild p50 ${round(median(result.full.ms), 1)} ms (collecting ${round(median(result.full.collectingMs), 1)} ms), ${fullHeap(result)}; ` +
        `incremental cold build ${round(result.coldBuildMs, 1)} ms`,
    )
    const whole = result.wholeStatus
    if (whole)
      console.log(
        `  the whole Gateway API status (${whole.stored.objects} objects, GET …/gateway-status): read as kept ${round(whole.stored.cpuMs, 1)} CPU ms, ` +
          `${whole.stored.nodes} nodes; computed over every object ${round(whole.computed.cpuMs, 1)} CPU ms, ${whole.computed.nodes} nodes`,
      )
  }
  const target = results.find((result) => result.size === 20_000) ?? results[results.length - 1]!
  const oneRoute = target.rows.filter((row) => row.change !== 'httproute-weight')
  const weight = target.rows.find((row) => row.change === 'httproute-weight')!
  const minRatio = Math.min(...oneRoute.map((row) => row.ratio))
  console.log(`\ntargets (at ${target.size} HTTPRoutes, the Ingress rows' targets):`)
  console.log(`  ${mark(minRatio >= 200)} one-HTTPRoute change ≥ 200× faster than the full rebuild: lowest ratio ${minRatio}×`)
  const whole = target.wholeStatus
  if (whole) {
    const most = Math.max(...target.rows.map((row) => row.status_nodes_p50 ?? 0))
    console.log(
      `  ${mark(most * 100 < whole.computed.nodes)} the Gateway API status a one-HTTPRoute change has written reads < 1% of the nodes the whole status does: ` +
        `most ${most} nodes p50 (the whole, computed: ${whole.computed.nodes})`,
    )
  }
  console.log(
    `  ${mark(weight.reload_share === 0)} a weight change is applied at runtime: reloads in ${Math.round(weight.reload_share * 100)}% of changes, ${weight.bytes_written} bytes written`,
  )
}

/** Prints the stateless path's figures: what one change reads and writes in object storage, cold and warm. */
export function printStorageReport(results: StorageResult[]): void {
  console.log(`\nthrough object storage (in memory; cold = a fresh process with an empty cache, warm = a 32 MiB cache kept across changes; medians):`)
  console.log(
    table(
      results.flatMap((result) => result.rows),
      storageColumns,
    ),
  )
  console.log('')
  for (const result of results) {
    console.log(
      `${result.size} Ingresses (${result.objects} objects): committed in one batch in ${round(result.buildMs / 1000, 1)} s; snapshot tree depth ${result.snapshotDepth + 1}`,
    )
  }
  const smallest = results[0]!
  const largest = results[results.length - 1]!
  console.log(`\ntargets (object storage):`)
  if (results.length > 1) {
    const growth = largest.objects / smallest.objects
    const ratios = largest.rows.map((row, i) => row.nodes_read / smallest.rows[i]!.nodes_read)
    const worst = Math.max(...ratios)
    console.log(
      `  ${mark(worst < 1 + Math.log2(growth) / 2)} nodes read per change grow with the depth, not the size: ${round(growth, 1)}× the objects, ` +
        `${largest.rows.map((row, i) => `${row.change} ${round(ratios[i]!, 2)}×`).join(', ')}`,
    )
  }
  const at20k = results.find((result) => result.size === 20_000)?.rows.find((row) => row.change === 'ingress-path')
  if (at20k)
    console.log(`  ${mark(at20k.kib_stored < 32)} a one-Ingress event stores < 32 KiB at 20000 Ingresses (everything included, p50): ${at20k.kib_stored} KiB`)
  const cold = largest.coldProcess
  if (cold) {
    console.log(
      `  ${mark(cold.heapPeakMb < 64)} a cold process commits a one-Ingress change at ${largest.objects} objects in < 64 MB of heap: ` +
        `peak ${round(cold.heapPeakMb, 1)} MB (${round(cold.heapBeforeMb, 1)} MB before it started; heap limit ${round(cold.heapLimitMb)} MB), ` +
        `${cold.loaded.nodes} nodes read in ${cold.loaded.rounds} rounds, ${round(cold.ms)} ms from disk`,
    )
  }
}

/** Prints the end-to-end figures through the Node server beside the in-process one. */
export function printHttpReport(result: HttpResult, inProcessP50?: number): void {
  const { latencyMs, burstOneCluster: one, burstTenClusters: ten } = result
  console.log(`\nthrough hapedge serve (a separate process on loopback, local disk with fsync, ${result.size} Ingresses):`)
  console.log(
    `  one-Ingress event, request in → committed → response: p50 ${latencyMs.p50} ms, p95 ${latencyMs.p95} ms (${latencyMs.samples} sequential requests)` +
      (inProcessP50 === undefined ? '' : `; the same change in process: p50 ${inProcessP50} ms`),
  )
  console.log(
    `  burst of ${one.requests} single events on one cluster: ${one.rps} requests/s (${one.seconds} s, ${one.retries} retried after a 503 (writers race for HEAD) or a reset connection)`,
  )
  console.log(
    `  burst of ${ten.requests} single events across ten clusters of 1,000 Ingresses: ${ten.rps} requests/s (${ten.seconds} s, ${ten.retries} retried after a 503 or a reset connection)`,
  )
}

/**
 * Prints the time from an event posted to its route answering through HAProxy, a row per
 * background size (each the median of its runs), with issue 19's target: flat in the cluster's
 * size (p50 < 50 ms and p95 < 120 ms at the largest, within ±20% of the smallest).
 */
export function printConvergenceReport(runs: readonly ConvergenceRun[]): void {
  const middle = (values: number[]) => round(median(values), 1)
  const spread = (values: number[]) => (values.length > 1 ? ` (runs: ${values.join(', ')})` : '')
  console.log(
    '\nconvergence (event posted → committed → agent pulls and applies → the new route answers through HAProxy 2.6; per background size, the median of its runs):',
  )
  const rows = runs[0]!.sizes.map((_, size) => {
    const ofSize = runs.map((run) => run.sizes[size]!)
    const of = (kind: 'committed' | 'afterCommit' | 'runtime' | 'reload') => ({
      p50: ofSize.map((run) => run[kind].p50),
      p95: ofSize.map((run) => run[kind].p95),
      samples: ofSize[0]![kind].samples,
    })
    const [runtime, reload, committed, afterCommit] = [of('runtime'), of('reload'), of('committed'), of('afterCommit')]
    const steady = ofSize.reduce((sum, run) => ({ requests: sum.requests + run.steady.requests, wrong: sum.wrong + run.steady.wrong }), {
      requests: 0,
      wrong: 0,
    })
    console.log(`  beside ${ofSize[0]!.background} Ingresses (${ofSize.length} run(s)):`)
    console.log(
      `    path change, applied at runtime: p50 ${middle(runtime.p50)} ms${spread(runtime.p50)}, p95 ${middle(runtime.p95)} ms${spread(runtime.p95)} ` +
        `(${runtime.samples} changes a run; the write answered after p50 ${middle(committed.p50)} ms; served p50 ${middle(afterCommit.p50)} ms after that answer, p95 ${middle(afterCommit.p95)} ms: less than 0 where the route answered first, as the push leaves when HEAD moves)`,
    )
    console.log(
      `    new Service, applied by a checked reload: p50 ${middle(reload.p50)} ms${spread(reload.p50)}, p95 ${middle(reload.p95)} ms${spread(reload.p95)} (${reload.samples} changes a run)`,
    )
    for (const { reloadFailure } of ofSize) if (reloadFailure) console.log(`    a reload failed, which ended that run's reload samples: ${reloadFailure}`)
    const cpu = (part: 'serve' | 'agent', of: 'cpuPerChange' | 'cpuFirstChange' = 'cpuPerChange') => ofSize.map((run) => run[of][part])
    console.log(
      `    CPU per path change (user + system): hapedge serve ${middle(cpu('serve'))} ms${spread(cpu('serve'))}, the agent process ${middle(cpu('agent'))} ms${spread(cpu('agent'))}; ` +
        `the first change after the agent started: serve ${middle(cpu('serve', 'cpuFirstChange'))} ms, agent ${middle(cpu('agent', 'cpuFirstChange'))} ms`,
    )
    console.log(`    a steady client on a route that stays: ${steady.wrong} of ${steady.requests} answers from anything but its backend`)
    return { background: ofSize[0]!.background, p50: middle(runtime.p50), p95: middle(runtime.p95) }
  })
  const [smallest, largest] = [rows[0]!, rows.at(-1)!]
  const flat = Math.abs(largest.p50 - smallest.p50) <= 0.2 * smallest.p50
  // Within a run the sizes took turns change by change: each turn's ratio is drift-free, their median the run's.
  const ratios = runs.map((run) => run.ratio)
  console.log(
    `  change by change, the path change beside ${largest.background} Ingresses against the one beside ${smallest.background} in the same turn: ` +
      `${ratios.map(percent).join(', ')} run by run (median ${percent(median(ratios))})`,
  )
  console.log(
    `  ${mark(largest.p50 < 50 && largest.p95 < 120)} a path change serves in < 50 ms median and < 120 ms p95 beside ${largest.background} Ingresses (${largest.p50} ms, ${largest.p95} ms)`,
  )
  console.log(
    `  ${mark(flat)} its median beside ${largest.background} Ingresses is within ±20% of the one beside ${smallest.background} (${largest.p50} ms against ${smallest.p50} ms)`,
  )
}

/** Prints the commits of two clusters taking turns in one server: each size's, and the ratio change by change. */
export function printCommitTurnsReport({ sizes, ratio }: CommitTurns): void {
  const [smallest, largest] = [sizes[0]!, sizes.at(-1)!]
  console.log(
    `\ncommits taking turns (one hapedge serve on local disk, a path change to a cluster beside ${smallest.background} Ingresses and one to a cluster beside ${largest.background}, in turn; no agent):`,
  )
  for (const { background, committed } of sizes)
    console.log(`  beside ${background} Ingresses: p50 ${committed.p50} ms, p95 ${committed.p95} ms (${committed.samples} changes)`)
  console.log(
    `  beside ${largest.background} against beside ${smallest.background}: ${percent(largest.committed.p50 / smallest.committed.p50 - 1)} at the median, ${percent(ratio)} change by change (the median of each turn's ratio)`,
  )
}

/** Prints the churn run: how many of its changes the agent applied without a reload, and how long each kind took. */
export function printChurnReport({ changes, runtime, reload, unchanged }: ChurnResult): void {
  const applied = runtime.samples + reload.samples
  const times = (kind: Latency) => (kind.samples ? `p50 ${kind.p50} ms, p95 ${kind.p95} ms (${kind.samples} changes)` : 'no changes')
  console.log(
    `\nconvergence through ${changes} mixed changes (the agent-churn test's mix and seed, no client load; event posted → the listening agent reports the generation applied):`,
  )
  console.log(
    `  applied without a reload: ${runtime.samples}/${applied}${applied ? ` = ${round((runtime.samples / applied) * 100, 1)}%` : ''}` +
      (unchanged ? ` (${unchanged} more committed no new generation: nothing to apply)` : ''),
  )
  console.log(`  at runtime: ${times(runtime)}`)
  console.log(`  by a checked reload: ${times(reload)}`)
}

/** Prints what sealing cluster content (AES-GCM per node and blob) costs per change, beside the same changes unsealed. */
export function printSealingReport({ size, plainBuildMs, sealedBuildMs, rows }: SealingResult): void {
  console.log(`\nsealed vs plain (in memory, ${size} Ingresses, the same changes through both; medians):`)
  console.log(table(rows, sealingColumns))
  console.log(`first commit of the whole cluster: plain ${round(plainBuildMs / 1000, 1)} s, sealed ${round(sealedBuildMs / 1000, 1)} s`)
}

/** Prints the fleet: many clusters behind one serve process, and whether one cluster's load slows another's. */
export function printFleetReport(result: FleetResult): void {
  const { load, spread, quiet, noisy, fleetView } = result
  const times = (kind: Latency) => `p50 ${kind.p50} ms, p95 ${kind.p95} ms`
  const ratio = (of: Latency, to: Latency) => `p50 ${round(of.p50 / to.p50, 2)}×, p95 ${round(of.p95 / to.p95, 2)}×`
  console.log(
    `\nfleet (${result.clusters} clusters of ${result.ingresses} Ingresses, ${result.objectsPerCluster} objects each, behind one hapedge serve on local disk with fsync, ` +
      `content sealed under HAPEDGE_SECRET; ${result.cpus} CPUs shared by the server and this client):`,
  )
  console.log(
    `  loading, one resync (PUT …/objects) per cluster, ${result.inFlight} in flight: ${load.seconds} s in all; per cluster ${times(load.perCluster)}`,
  )
  console.log(`  one-Ingress event at a random cluster, one at a time: ${times(result.oneAtATime)} (${result.oneAtATime.samples} events)`)
  console.log(
    `  one-Ingress events at random clusters, ${result.inFlight} in flight: ${times(spread.latency)} per event (${spread.latency.samples} events in ${spread.seconds} s = ` +
      `${round(spread.latency.samples / spread.seconds, 1)} events/s, ${spread.retries} retried after a 503 or a reset connection)`,
  )
  console.log(`  isolation: one quiet cluster's events, one at a time`)
  console.log(`    (a) nothing else running: ${times(quiet.alone)} (${quiet.alone.samples} events)`)
  console.log(
    `    (b) while ${noisy.writers} writers flood another cluster with ${noisy.batch}-event batches: ${times(quiet.beside)}; ` +
      `the noisy cluster took ${round(noisy.events / noisy.seconds)} events/s (${noisy.events} events in ${noisy.seconds} s, a batch answered in ${times(noisy.request)}, ${noisy.retries} retried after a 503 or a reset connection)`,
  )
  const busy = quiet.cpuBeside.server + quiet.cpuBeside.client
  console.log(
    `    (b)/(a): ${ratio(quiet.beside, quiet.alone)} on ${result.cpus} CPUs. Writes queue per cluster, so the quiet cluster's events never wait in the noisy one's queue ` +
      `(where a batch waited ${noisy.request.p50} ms at p50); what the clusters share is the server's one JavaScript thread, the CPUs and the disk's fsyncs, so some slowdown is expected. ` +
      `Cores busy, server (of it in the kernel) + this client: ${quiet.cpuAlone.server} (${quiet.cpuAlone.serverKernel}) + ${quiet.cpuAlone.client} during (a), ` +
      `${quiet.cpuBeside.server} (${quiet.cpuBeside.serverKernel}) + ${quiet.cpuBeside.client} during (b)` +
      (busy < result.cpus * 0.8
        ? ': the CPUs were not saturated, so the rest of the slowdown is the shared disk (every object a commit writes is fsynced)'
        : ': the CPUs were saturated'),
  )
  console.log(`    a quiet event right after each GET /v1/fleet: ${times(quiet.afterFleetView)}; vs (a): ${ratio(quiet.afterFleetView, quiet.alone)}`)
  console.log(`  GET /v1/fleet over ${result.clusters} clusters (client round trip; answeredInMs as the server reports it):`)
  console.log(`    cold, first call after loading: ${fleetView.cold.clientMs} ms; answeredInMs ${fleetView.cold.answeredInMs}`)
  console.log(`    warm, ${fleetView.warm.client.samples} calls: ${times(fleetView.warm.client)}; answeredInMs ${times(fleetView.warm.answered)}`)
  const flowing = fleetView.whileEventsFlow
  console.log(
    `    while events flow (${result.inFlight} in flight at random clusters), ${flowing.client.samples} calls: ${times(flowing.client)}; answeredInMs ${times(flowing.answered)}; ` +
      `the events meanwhile: ${times(flowing.events)} (${flowing.events.samples} events)`,
  )
}

export function printWorkerBundleReport({ files, bytes, gzipBytes }: WorkerBundle): void {
  const kib = (n: number) => `${round(n / 1024, 1)} KiB`
  const share = (limit: number) => `${round((100 * gzipBytes) / limit, 1)}%`
  console.log(`\nWorker bundle (wrangler deploy --dry-run): ${files} module(s), ${kib(bytes)}, ${kib(gzipBytes)} gzipped`)
  console.log(
    `  ${share(WORKER_GZIP_LIMITS.free)} of the free plan's ${kib(WORKER_GZIP_LIMITS.free)}, ${share(WORKER_GZIP_LIMITS.paid)} of the paid plan's ${kib(WORKER_GZIP_LIMITS.paid)}`,
  )
}

/** The lowest and highest of a row's runs (`8.1–9.7`), or its one run's figure. */
const spread = (values: readonly number[]) => (values.length < 2 ? String(values[0] ?? 'n/a') : `${Math.min(...values)}–${Math.max(...values)}`)

/** Prints the resync rows through hapedge serve, the quiet cluster beside each, and the issue's targets for them. */
export function printResyncReport(results: readonly ResyncResult[], heapCheck?: HeapCheck): void {
  const mib = (bytes: number) => (Number.isNaN(bytes) ? 'n/a' : round(bytes / 1024 / 1024, 1))
  console.log(
    `\nresyncs through hapedge serve (a separate process on loopback, local disk with fsync; put = one PUT …/objects, paged = a resync session; ` +
      `each row the median of its runs (each on fresh servers), spread = its lowest and highest run; ` +
      `system = the part of the server's CPU the kernel spent, mostly the file system's (a jump in it between runs is the disk's state, not the code); ` +
      `heap peak = the largest heap used V8 reported at a collection during the resync (--trace-gc); blocked = the longest the server's event loop was held ` +
      `during the resync, by its own sampler (hapedge_event_loop_blocked_max_seconds in /metrics), in wall time and in the CPU time the server spent meanwhile, ` +
      `which the machine's load does not move: what the quiet cluster's events may wait; quiet = one-Ingress events on another cluster of ` +
      `${QUIET_INGRESSES} Ingresses of the same server, one at a time, during the resync):`,
  )
  const rows = results.flatMap((result) => result.rows)
  console.log(
    table(
      rows.map(({ error, stored_bytes, written_bytes, seconds_runs, cpu_seconds_runs, ...row }) => ({
        ...row,
        stored_mib: mib(stored_bytes),
        written_mib: mib(written_bytes),
        seconds_spread: spread(seconds_runs),
        cpu_seconds_spread: spread(cpu_seconds_runs),
        outcome: error ?? 'done',
      })),
      resyncColumns,
    ),
  )
  for (const result of results)
    for (const [path, alone] of Object.entries(result.quietAlone))
      console.log(
        `${result.size} Ingresses (${result.objects} objects), ${path}: the quiet cluster's events with nothing else running p50 ${alone.p50} ms, p95 ${alone.p95} ms`,
      )
  if (heapCheck)
    console.log(
      `heap check: a paged resync of ${heapCheck.objects} objects (${heapCheck.ingresses} Ingresses) into an empty cluster, serve under --max-old-space-size=${heapCheck.heapLimitMb}: ` +
        (heapCheck.finished
          ? `finished in ${heapCheck.seconds} s, ${heapCheck.cpuSeconds} s of serve's CPU (${heapCheck.requests} requests), peak heap ${heapCheck.heapPeakMb} MB`
          : `did not finish after ${heapCheck.seconds} s, ${heapCheck.cpuSeconds} s of serve's CPU: ${heapCheck.error}; peak heap ${heapCheck.heapPeakMb} MB`),
    )

  console.log('\ntargets (resyncs):')
  const at = (size: number, change: string, path?: ResyncPath) =>
    rows.filter((row) => row.size === size && row.change === change && !row.error && (path === undefined || row.path === path))
  // Each row is the median of its runs already. A target is judged on the path the forwarder takes at that size (the server says: put where it takes the list whole); the other path's figure is beside it.
  const result20k = results.find((result) => result.size === 20_000)
  if (result20k) {
    const path = result20k.forwarderPath
    const other = path === 'put' ? 'paged' : 'put'
    const secondsOf = (change: string, of: ResyncPath) => Math.min(...at(20_000, change, of).map((row) => row.seconds))
    const runs = Math.max(...rows.filter((row) => row.size === 20_000).map((row) => row.runs))
    const seconds = (value: number) => (Number.isFinite(value) ? `${value} s${runs > 1 ? ` (median of ${runs} runs)` : ''}` : 'not measured')
    const cpu = (change: string, of: ResyncPath) => at(20_000, change, of).map((row) => `, ${row.cpu_seconds} s CPU`)[0] ?? ''
    const besideOther = (change: string) => `; ${other}: ${seconds(secondsOf(change, other))}${cpu(change, other)}`
    console.log(
      `  the forwarder sends a 20000-Ingress resync to this server ${path === 'put' ? 'whole, as one PUT …/objects (the server takes it whole)' : 'in pages'}: the targets below are judged on ${path}`,
    )
    const noop = secondsOf('resync-noop', path)
    const full = secondsOf('resync-full-alone', path)
    console.log(`  ${mark(noop < 3)} a no-op resync at 20000 Ingresses < 3 s: ${seconds(noop)}${cpu('resync-noop', path)}${besideOther('resync-noop')}`)
    console.log(
      `  ${mark(full < 8)} a full resync into an empty cluster at 20000 Ingresses < 8 s: ${seconds(full)}${cpu('resync-full-alone', path)} with nothing else running ` +
        `(${seconds(secondsOf('resync-full', path))} beside the quiet cluster's events, which it yields to)${besideOther('resync-full-alone')}`,
    )
    const during = at(20_000, 'resync-full').concat(at(20_000, 'resync-noop'), at(20_000, 'resync-1pct'))
    const worst = Math.max(...during.map((row) => row.quiet_p95_ms))
    console.log(
      `  ${mark(during.length > 0 && worst < 100)} another cluster's one-Ingress events keep p95 < 100 ms while a 20000-Ingress cluster resyncs: worst p95 ${worst} ms ` +
        `(${during.map((row) => `${row.path} ${row.change} ${row.quiet_p95_ms}`).join(', ')}); beside it, the figure the machine's load does not move, ` +
        `the CPU time of the longest stretch the server's event loop was blocked: ${Math.max(...during.map((row) => row.loop_blocked_cpu_ms))} ms ` +
        `(${during.map((row) => `${row.path} ${row.change} ${row.loop_blocked_cpu_ms}`).join(', ')})`,
    )
  }
  if (heapCheck)
    console.log(
      `  ${mark(heapCheck.finished && heapCheck.heapPeakMb < 64)} a paged resync of ${heapCheck.objects} objects (${heapCheck.ingresses} Ingresses) in < 64 MB of heap: ${heapCheck.finished ? `peak ${heapCheck.heapPeakMb} MB` : 'did not finish'}`,
    )
}

type WorkerdCells = Omit<WorkerdResyncRow, 'error' | 'failures' | 'quiet_error_reasons' | 'stored_bytes'> & { stored_mib: number; outcome: string }

const workerdColumns: Columns<WorkerdCells> = [
  ['size', 'Ingresses'],
  ['change', 'change'],
  ['objects', 'objects'],
  ['seconds', 's'],
  ['workerd_cpu_seconds', 'workerd CPU s'],
  ['workerd_rss_peak_mb', 'workerd RSS MB'],
  ['requests', 'requests'],
  ['pages', 'pages'],
  ['finishes', 'finishes'],
  ['accepted', '202s'],
  ['failed', 'sent again'],
  ['committed', 'committed'],
  ['stored_mib', 'R2 MiB'],
  ['quiet_p50_ms', 'quiet p50 ms'],
  ['quiet_p95_ms', 'quiet p95 ms'],
  ['quiet_max_ms', 'quiet max ms'],
  ['quiet_samples', 'quiet n'],
  ['quiet_retries', 'quiet sent again'],
  ['quiet_errors', 'quiet errors'],
  ['outcome', 'outcome'],
]

/** Prints the paged resyncs through wrangler dev, why calls and events failed, and what issue 19 asks of them. */
export function printWorkerdResyncReport(results: readonly WorkerdResyncResult[]): void {
  console.log(
    `\npaged resyncs through wrangler dev (the Worker of wrangler.toml in workerd, local R2; sent by the forwarder's own code, pages of up to 1,000 objects, three in flight; ` +
      `workerd CPU = its processes' user + system time meanwhile, the figure the machine's load does not move; RSS = the largest resident set of a workerd process, ` +
      `its runtime and every isolate together; quiet = one-Ingress events on another cluster of ${QUIET_INGRESSES} Ingresses of the same Worker, one at a time, during the resync):`,
  )
  const rows = results.flatMap((result) => result.rows)
  console.log(
    table(
      rows.map(({ error, failures: _, quiet_error_reasons: __, stored_bytes, ...row }) => ({
        ...row,
        stored_mib: round(stored_bytes / 1024 / 1024, 1),
        outcome: error ?? 'done',
      })),
      workerdColumns,
    ),
  )
  for (const result of results)
    console.log(
      `${result.size} Ingresses: the quiet cluster's events with nothing else running p50 ${result.quietAlone.p50} ms, p95 ${result.quietAlone.p95} ms`,
    )
  for (const row of rows) {
    if (row.failures.length > 0) console.log(`${row.size} ${row.change}: calls sent again: ${row.failures.join('; ')}`)
    if (row.quiet_errors > 0) console.log(`${row.size} ${row.change}: the quiet cluster's events that failed: ${row.quiet_error_reasons.join('; ')}`)
  }
  console.log('\ntargets (resyncs in workerd):')
  for (const result of results) {
    const full = result.rows.find((row) => row.change === 'workerd-resync-full')
    const noop = result.rows.find((row) => row.change === 'workerd-resync-noop')
    const finished = (row?: WorkerdResyncRow) => (row ? (row.error ?? `${row.seconds} s, ${row.requests} requests`) : 'not run')
    console.log(`  ${mark(!!full && !full.error)} a ${result.size}-Ingress paged resync into an empty cluster finishes in workerd: ${finished(full)}`)
    console.log(`  ${mark(!!noop && !noop.error)} the same list again finishes and commits nothing: ${finished(noop)}`)
    const during = result.rows.filter((row) => row.quiet_samples > 0 || row.quiet_errors > 0)
    console.log(
      `  ${mark(during.length === result.rows.length && during.every((row) => row.quiet_samples > 0 && row.quiet_errors === 0))} another cluster's events are answered meanwhile, none failing: ` +
        result.rows
          .map((row) => `${row.change} ${row.quiet_samples} answered, ${row.quiet_errors} failed, p95 ${row.quiet_p95_ms} ms, max ${row.quiet_max_ms} ms`)
          .join('; '),
    )
  }
}
