import type { Sealer } from '../../../core/crypto/sealer.ts'
import type { Rejection } from '../../../core/model/rejection.ts'
import type { AnnotationWarning } from '../../../core/model/ingress-annotations.ts'
import type { Clock } from '../../../core/ports/clock.ts'
import type { ClusterWriter, ClusterWriterFactory } from '../../../core/ports/cluster-writer.ts'
import type { ObjectStore } from '../../../core/ports/object-store.ts'
import type { ClusterRecord } from '../../../core/registry/cluster-record.ts'
import { openAccess } from '../../../core/registry/kubernetes-access.ts'
import { clusterKeys } from '../../../core/keys/cluster-keys.ts'
import { sha256Hex } from '../../../core/hash.ts'
import { currentStatus, gatewayStatusSince } from './current-status.ts'
import { readGatewayStatusWritten, storeGatewayStatusWritten, type GatewayStatusWritten } from './gateway-status-written.ts'
import type { Metrics } from './metrics.ts'
import type { NodeCaches } from './node-caches.ts'

export interface MirrorOptions {
  store: ObjectStore
  caches: NodeCaches
  metrics: Metrics
  clock: Clock
  sealer?: Sealer
  writers?: ClusterWriterFactory
}

/**
 * After each write (and each agent report), writes what HEAD names into the cluster: the
 * `HAProxyCfg` status, and Events for the rejections the write's objects got. HEAD stays the
 * truth: this runs after the answer, one at a time per cluster, and a failure is counted in
 * `/metrics` and repaired by the next call, which writes the status whole again.
 */
export class ClusterMirror {
  private readonly writers = new Map<string, { sealed: string; writer: Promise<ClusterWriter> }>()
  private readonly queues = new Map<string, Promise<void>>()
  /** Per cluster, the generation whose Gateway API status its writer wrote without a failure, as stored (gateway-status-written.ts): the next write is what changed since. */
  private readonly gatewayWritten = new Map<string, GatewayStatusWritten>()

  constructor(private readonly options: MirrorOptions) {}

  mirror(record: ClusterRecord, rejected: readonly Rejection[], warnings: readonly AnnotationWarning[] = []): Promise<void> {
    if (!record.kubernetes || !record.dataKey || !this.options.sealer || !this.options.writers) return Promise.resolve()
    const next = (this.queues.get(record.id) ?? Promise.resolve()).then(() => this.write(record, rejected, warnings))
    this.queues.set(record.id, next)
    void next.finally(() => this.queues.get(record.id) === next && this.queues.delete(record.id))
    return next
  }

  private async write(record: ClusterRecord, rejected: readonly Rejection[], warnings: readonly AnnotationWarning[]): Promise<void> {
    const { metrics } = this.options
    const count = (outcome: string) =>
      metrics.count('hapedge_status_writes_total', 'HAProxyCfg status writes after a commit or report, by cluster and outcome.', {
        cluster: record.id,
        outcome,
      })
    try {
      const writer = await this.writerOf(record)
      const status = await currentStatus(this.options, record)
      if (!status) return
      const written = await writer.writeStatus(record.kubernetes!.resource, status)
      count(written.outcome)
      if (written.outcome === 'failed')
        console.error(`hapedge: cluster ${record.id}: HAProxyCfg status for generation ${written.generation} not written: ${written.error}`)
      await this.writeGatewayStatus(record, writer)
      if (rejected.length === 0 && warnings.length === 0) return
      const events = await writer.recordRejections(rejected, warnings)
      this.countOutcomes(
        'hapedge_rejection_events_total',
        'Kubernetes Events for rejected objects and annotations not honoured, by cluster and outcome.',
        record,
        {
          created: events.created,
          repeated: events.repeated,
          skipped: events.skipped,
          failed: events.errors.length,
        },
      )
    } catch (error) {
      count('failed')
      console.error(`hapedge: cluster ${record.id}: mirroring into the cluster failed: ${error instanceof Error ? error.message : String(error)}`)
    }
  }

  /**
   * The Gateway API's status of HEAD, where the writer writes it: what changed since the
   * generation whose status was last written to this API server without a failure (kept in
   * storage, so a new process carries on; all of it the first time), nothing when that is HEAD's
   * (an agent's report). Counted per object by outcome, each failure logged; a failure leaves the
   * generation it started from, so the next call covers its objects again. Its own failure
   * leaves the Events after it alone.
   */
  private async writeGatewayStatus(record: ClusterRecord, writer: ClusterWriter): Promise<void> {
    if (!writer.writeGatewayStatus) return
    const help = 'Gateway API status writes (GatewayClasses, Gateways, routes) after a commit or report, by cluster and outcome.'
    try {
      const keys = clusterKeys(record.id)
      const credentials = await sha256Hex(record.kubernetes!.sealed)
      const known = this.gatewayWritten.get(record.id) ?? (await readGatewayStatusWritten(this.options.store, keys))
      // Written to another API server (the credentials changed): this one is given all of it.
      const since = known?.credentials === credentials ? known.generation : undefined
      const next = await gatewayStatusSince(this.options, record, since, 'skip')
      if (!next?.status) return
      const { status } = next
      // A change with objects taken out only is still given: the writer forgets what it wrote for them.
      const anything = status.objects.length > 0 || ('removed' in status && status.removed.length > 0)
      const result = anything ? await writer.writeGatewayStatus(status) : { written: 0, unchanged: 0, missing: 0, errors: [] as string[] }
      const { written, unchanged, missing, errors } = result
      this.countOutcomes('hapedge_gateway_status_writes_total', help, record, { written, unchanged, missing, failed: errors.length })
      for (const error of errors) console.error(`hapedge: cluster ${record.id}: Gateway API status not written: ${error}`)
      if (errors.length > 0) return
      const done = { generation: next.generation, credentials }
      this.gatewayWritten.set(record.id, done)
      await storeGatewayStatusWritten(this.options.store, keys, done)
    } catch (error) {
      this.countOutcomes('hapedge_gateway_status_writes_total', help, record, { failed: 1 })
      console.error(`hapedge: cluster ${record.id}: Gateway API status not written: ${error instanceof Error ? error.message : String(error)}`)
    }
  }

  private countOutcomes(name: string, help: string, record: ClusterRecord, outcomes: Record<string, number>): void {
    for (const [outcome, n] of Object.entries(outcomes)) if (n > 0) this.options.metrics.count(name, help, { cluster: record.id, outcome }, n)
  }

  /** One writer per cluster, made again when its credentials change. */
  private writerOf(record: ClusterRecord): Promise<ClusterWriter> {
    const access = record.kubernetes!
    const known = this.writers.get(record.id)
    if (known?.sealed === access.sealed) return known.writer
    const writer = openAccess(this.options.sealer!, record.dataKey!, record.id, access).then((credentials) => this.options.writers!(credentials, record.id))
    writer.catch(() => this.writers.delete(record.id))
    this.writers.set(record.id, { sealed: access.sealed, writer })
    return writer
  }
}
