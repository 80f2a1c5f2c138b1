import type { AnnotationWarning } from '../../core/model/ingress-annotations.ts'
import type { Rejection } from '../../core/model/rejection.ts'
import type { ClusterWriter } from '../../core/ports/cluster-writer.ts'
import type { HAProxyCfgStatus, ResourceTarget } from '../../core/kube/haproxycfg.ts'

/**
 * The forwarder's `--write-status` mode, for clusters whose API server the function cannot
 * reach: after each answer of the function, it reads the status the function would write
 * (`GET …/status`) and writes it, with Events for the answer's rejections and warnings. Writes run one at a
 * time beside the deliveries, never holding them up; answers that arrive meanwhile collapse
 * into one status write (the newest status covers them), their rejections all recorded.
 */
export class StatusRelay {
  private running: Promise<void> | undefined
  private rejected: Rejection[] = []
  private warnings: AnnotationWarning[] = []
  private again = false

  constructor(
    private readonly readStatus: () => Promise<HAProxyCfgStatus>,
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

  private async drain(): Promise<void> {
    do {
      this.again = false
      const rejected = this.rejected.splice(0)
      const warnings = this.warnings.splice(0)
      try {
        const written = await this.writer.writeStatus(this.target, await this.readStatus())
        if (written.outcome === 'failed')
          this.log(`HAProxyCfg ${this.target.namespace}/${this.target.name}: status for generation ${written.generation} not written: ${written.error}`)
        if (rejected.length === 0 && warnings.length === 0) continue
        const events = await this.writer.recordRejections(rejected, warnings)
        for (const error of events.errors) this.log(`rejection Event: ${error}`)
      } catch (error) {
        this.log(`HAProxyCfg ${this.target.namespace}/${this.target.name}: ${error instanceof Error ? error.message : String(error)}`)
      }
    } while (this.again)
  }
}
