import type { GatewayStatusAnswer } from '../../core/api/gateway-status-answer.ts'
import type { AnnotationWarning } from '../../core/model/ingress-annotations.ts'
import type { Rejection } from '../../core/model/rejection.ts'
import type { ClusterWriter } from '../../core/ports/cluster-writer.ts'
import type { HAProxyCfgStatus, ResourceTarget } from '../../core/kube/haproxycfg.ts'

/** Where the relay reads what to write: the function (`GET …/status`, `GET …/gateway-status`). */
export interface StatusSource {
  status(): Promise<HAProxyCfgStatus>
  /** Whole, or what changed since the generation `since` (then with `removed`). */
  gatewayStatus(since?: number): Promise<GatewayStatusAnswer>
}

/**
 * The forwarder's `--write-status` mode, for clusters whose API server the function cannot
 * reach: after each answer of the function, it reads the status the function would write
 * (`GET …/status`, and the Gateway API's from `GET …/gateway-status`) and writes it, with Events for the answer's rejections and warnings. Writes run one at a
 * time beside the deliveries, never holding them up; answers that arrive meanwhile collapse
 * into one status write (the newest status covers them), their rejections all recorded.
 */
export class StatusRelay {
  private running: Promise<void> | undefined
  private rejected: Rejection[] = []
  private warnings: AnnotationWarning[] = []
  private again = false
  /** The generation whose Gateway API status was written without a failure: the next write asks only what changed since. */
  private gatewayWritten: number | undefined

  constructor(
    private readonly source: StatusSource,
    private readonly writer: ClusterWriter,
    private readonly target: ResourceTarget,
    private readonly log: (line: string) => void,
  ) {}

  committed(rejected: readonly Rejection[] = [], warnings: readonly AnnotationWarning[] = []): void {
    this.rejected.push(...rejected)
    this.warnings.push(...warnings)
    if (this.running) {
      this.again = true
      return
    }
    this.running = this.drain().finally(() => (this.running = undefined))
  }

  /** Waits for the writes under way (on stop). */
  settled(): Promise<void> {
    return this.running ?? Promise.resolve()
  }

  /**
   * The Gateway API's status, where the cluster has any of its objects: what changed since the
   * generation it last wrote without a failure (whole the first time, and when the function no
   * longer retains that generation). A failure is logged, and the next answer covers its objects again.
   */
  private async writeGatewayStatus(): Promise<void> {
    if (!this.writer.writeGatewayStatus) return
    try {
      const { generation, ...status } = await this.source.gatewayStatus(this.gatewayWritten)
      const anything = status.objects.length > 0 || (status.removed?.length ?? 0) > 0
      const written = anything ? await this.writer.writeGatewayStatus(status) : { errors: [] }
      for (const error of written.errors) this.log(`Gateway API status not written: ${error}`)
      if (written.errors.length === 0) this.gatewayWritten = generation
    } catch (error) {
      this.log(`Gateway API status: ${error instanceof Error ? error.message : String(error)}`)
    }
  }

  private async drain(): Promise<void> {
    do {
      this.again = false
      const rejected = this.rejected.splice(0)
      const warnings = this.warnings.splice(0)
      try {
        const written = await this.writer.writeStatus(this.target, await this.source.status())
        if (written.outcome === 'failed')
          this.log(`HAProxyCfg ${this.target.namespace}/${this.target.name}: status for generation ${written.generation} not written: ${written.error}`)
        await this.writeGatewayStatus()
        if (rejected.length === 0 && warnings.length === 0) continue
        const events = await this.writer.recordRejections(rejected, warnings)
        for (const error of events.errors) this.log(`rejection Event: ${error}`)
      } catch (error) {
        this.log(`HAProxyCfg ${this.target.namespace}/${this.target.name}: ${error instanceof Error ? error.message : String(error)}`)
      }
    } while (this.again)
  }
}
