import type { WatchEvent } from '../../../core/incremental/watch-event.ts'
import { namedObjects, type IngestResult } from '../../../core/ingest/ingest.ts'
import { capWarnings } from '../../../core/ingest/write-warnings.ts'
import { yieldToEventLoop } from '../../../core/yield-to-event-loop.ts'

interface Waiting<C> {
  events: readonly WatchEvent[]
  context: C
  resolve(result: IngestResult): void
  reject(error: unknown): void
}

/**
 * One cluster's writes from this process, one commit at a time: requests that arrive while a
 * commit runs wait, and are then committed together (group commit), so a burst on one cluster
 * costs a few commits instead of many writers racing for HEAD. Each request hears of the
 * generation that holds its events and of the rejections that name its own objects. A group
 * commits in the context of its last request (the cluster's settings as most recently read).
 * Between two groups the queue yields to the event loop: a cluster with a long backlog (a resync
 * in slices) would otherwise go from one commit's last await straight into the next commit's
 * compute, and other clusters' requests on the same thread would wait for the whole backlog.
 */
export class WriteQueue<C = unknown> {
  private waiting: Waiting<C>[] = []
  private running = false

  constructor(
    private readonly commit: (events: readonly WatchEvent[], context: C) => Promise<IngestResult>,
    private readonly maxEvents: number,
    private readonly idle: () => void,
  ) {}

  submit(events: readonly WatchEvent[], context: C): Promise<IngestResult> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ events, context, resolve, reject })
      if (!this.running) void this.drain()
    })
  }

  private async drain(): Promise<void> {
    this.running = true
    for (let first = true; this.waiting.length > 0; first = false) {
      if (!first) await yieldToEventLoop()
      const group = this.takeGroup()
      try {
        const result = await this.commit(
          group.flatMap((request) => request.events),
          group[group.length - 1]!.context,
        )
        for (const request of group) {
          const named = namedObjects(request.events)
          request.resolve({
            ...result,
            rejected: result.rejected.filter((rejection) => named.has(rejection.object)),
            ...capWarnings(result.warnings.filter((warning) => named.has(warning.object))),
          })
        }
      } catch (error) {
        for (const request of group) request.reject(error)
      }
    }
    this.running = false
    this.idle()
  }

  /** The requests to commit together: at least one, then as many as fit in `maxEvents`. */
  private takeGroup(): Waiting<C>[] {
    const group = [this.waiting.shift()!]
    let events = group[0]!.events.length
    while (this.waiting.length > 0 && events + this.waiting[0]!.events.length <= this.maxEvents) {
      const next = this.waiting.shift()!
      events += next.events.length
      group.push(next)
    }
    return group
  }
}
