import type { Applied } from '../core/incremental/incremental-cluster.ts'
import type { WatchEvent } from '../core/incremental/watch-event.ts'
import { LiveCluster } from '../core/incremental/live-cluster.ts'
import type { NewNode } from '../core/tree/node.ts'
import { nodeSha256 } from '../functions/adapters/hash/node-sha256.ts'
import { CHANGE_KINDS, ChangeSource, type ChangeKind } from './changes.ts'
import { HTTPROUTE_CHANGE_KINDS, HttpRouteChangeSource, type HttpRouteChangeKind } from './httproute-changes.ts'
import { measureFullRebuilds, type FullRebuilds } from './full-rebuild.ts'
import { seededRandom } from './random.ts'
import { collectGarbage, heapUsedMb, median, percentile, round } from './stats.ts'
import { syntheticCluster, type KubeObjectLiteral } from './synthetic-cluster.ts'
import { syntheticGatewayCluster } from './synthetic-gateway.ts'
import { gatewayStatusChangeCost, wholeGatewayStatusCost, type StatusCost } from './gateway-status-cost.ts'

export interface Row {
  size: number
  change: ChangeKind | HttpRouteChangeKind
  incremental_ms_p50: number
  incremental_ms_p95: number
  full_ms_p50: number
  ratio: number
  bytes_written: number
  files_written: number
  heap_peak_mb: number
  reload_share: number
  metadata_bytes: number
  snapshot_nodes: number
  snapshot_bytes: number
  /** The Gateway API status the function's writer reads after the change (the HTTPRoute rows: what changed since the last): CPU ms and snapshot nodes read, p50. */
  status_cpu_ms_p50?: number
  status_nodes_p50?: number
}

export interface SizeResult {
  size: number
  objects: number
  /** The full rebuilds, on a thread of their own: their times and peak heap. */
  full: FullRebuilds
  coldBuildMs: number
  manifestBytes: number
  rows: Row[]
  /** The whole Gateway API status after the changes (the HTTPRoute rows): read as kept, and computed over every object. */
  wholeStatus?: { stored: StatusCost; computed: StatusCost }
}

/** The commit time the status's conditions carry: any fixed one (the bench measures the computation, not the time). */
const STATUS_TIME = '2026-01-01T00:00:00.000Z'

/** What a commit of a change writes: file content (chunks), metadata (chunk lists, manifest nodes and root), snapshot nodes. */
function written({ created }: Applied) {
  const sum = (nodes: NewNode[]) => nodes.reduce((total, node) => total + Buffer.byteLength(node.text), 0)
  return {
    bytes: sum(created.content),
    files: created.content.length,
    metadataBytes: sum(created.metadata),
    snapshotNodes: created.snapshot.length,
    snapshotBytes: sum(created.snapshot),
  }
}

export async function measureSize(size: number, options: { samples: number; fullRuns: number }): Promise<SizeResult> {
  const random = seededRandom(size)
  const objects = syntheticCluster(size, random)
  const source = new ChangeSource(objects, size, random)
  return measureChanges(size, objects, CHANGE_KINDS, (kind) => source.next(kind), options)
}

/** The HTTPRoute rows: a cluster of `size` HTTPRoutes on one Gateway, changed one HTTPRoute at a time. */
export async function measureHttpRoutes(size: number, options: { samples: number; fullRuns: number }): Promise<SizeResult> {
  const random = seededRandom(size)
  const objects = syntheticGatewayCluster(size, random)
  const source = new HttpRouteChangeSource(objects, size, random)
  return measureChanges(size, objects, HTTPROUTE_CHANGE_KINDS, (kind) => source.next(kind), { ...options, status: true })
}

/** Full rebuilds of `objects`, then each kind of change applied `samples` times to one live cluster built from them. */
async function measureChanges<Kind extends Row['change']>(
  size: number,
  objects: readonly KubeObjectLiteral[],
  kinds: readonly Kind[],
  next: (kind: Kind) => WatchEvent[],
  options: { samples: number; fullRuns: number; status?: boolean },
): Promise<SizeResult> {
  const full = await measureFullRebuilds(objects, options.fullRuns)

  collectGarbage()
  const coldStarted = performance.now()
  const cluster = new LiveCluster({}, nodeSha256)
  let applied = cluster.apply(objects.map((object) => ({ type: 'ADDED' as const, object })))
  const coldBuildMs = performance.now() - coldStarted

  const fullP50 = median(full.ms)
  const rows: Row[] = []
  for (const change of kinds) {
    const times: number[] = []
    let bytes = 0
    let files = 0
    let reloads = 0
    let heap = 0
    let metadata = 0
    let snapshotNodes = 0
    let snapshotBytes = 0
    const statuses: StatusCost[] = []
    for (let sample = 0; sample < options.samples; sample++) {
      const events = next(change)
      const before = cluster.current.snapshot.root
      const started = performance.now()
      applied = cluster.apply(events)
      times.push(performance.now() - started)
      heap = Math.max(heap, heapUsedMb())
      const wrote = written(applied)
      bytes += wrote.bytes
      files += wrote.files
      metadata += wrote.metadataBytes
      snapshotNodes += wrote.snapshotNodes
      snapshotBytes += wrote.snapshotBytes
      if (applied.plan.reload) reloads++
      if (options.status) statuses.push(await gatewayStatusChangeCost(cluster, before, STATUS_TIME))
    }
    const p50 = median(times)
    rows.push({
      size,
      change,
      incremental_ms_p50: round(p50),
      incremental_ms_p95: round(percentile(times, 95)),
      full_ms_p50: round(fullP50, 1),
      ratio: round(fullP50 / p50, 1),
      bytes_written: Math.round(bytes / options.samples),
      files_written: round(files / options.samples, 2),
      heap_peak_mb: round(heap, 1),
      reload_share: round(reloads / options.samples, 2),
      metadata_bytes: Math.round(metadata / options.samples),
      snapshot_nodes: round(snapshotNodes / options.samples, 1),
      snapshot_bytes: Math.round(snapshotBytes / options.samples),
      ...(options.status
        ? {
            status_cpu_ms_p50: round(median(statuses.map((cost) => cost.cpuMs)), 2),
            status_nodes_p50: median(statuses.map((cost) => cost.nodes)),
          }
        : {}),
    })
  }
  const wholeStatus = options.status
    ? { stored: wholeGatewayStatusCost(cluster, STATUS_TIME, 'stored'), computed: wholeGatewayStatusCost(cluster, STATUS_TIME, 'computed') }
    : undefined
  const manifestBytes = Buffer.byteLength(applied.generation.record.text)
  return { size, objects: objects.length, full, coldBuildMs, manifestBytes, rows, ...(wholeStatus ? { wholeStatus } : {}) }
}
