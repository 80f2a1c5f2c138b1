import type { WatchEvent } from '../../core/incremental/watch-event.ts'
import { backoffDelay, DEFAULT_BACKOFF, retryAfterMs, sleep, type Backoff } from '../../functions/adapters/kubernetes/backoff.ts'
import { DeliveryError, type FunctionClient, type WriteResult } from './function-client.ts'
import { DEFAULT_PAGED_RESYNC, pagedResyncProgress, sendPagedResync, sentBytes, type PagedResyncProgress } from './paged-resync.ts'

export interface DeliveryOptions {
  /** Events per POST at most (the function takes up to 5,000). */
  maxEvents: number
  /** Serialised events per POST at most, in bytes (the function's body limit is 32 MiB). */
  maxBytes: number
  /** How long a batch stays open after its first event, so a burst goes in one request. */
  delayMs: number
  backoff: Backoff
  /** A resync of more objects than this goes as a resync session, in pages of at most this many (and `maxBytes`); fewer in one `PUT …/objects`. */
  resyncPageItems?: number
  /** Everything the function should hold, read when a resync is sent (not when it is asked for). */
  snapshot: () => { items: object[]; resourceVersion?: string }
  log: (line: string) => void
  /** Called with every write the function answered; the seam for a `--write-status` mode. */
  onCommitted?: (result: WriteResult, what: string) => void | Promise<void>
}

export const DEFAULT_DELIVERY = {
  maxEvents: 500,
  maxBytes: 4 * 1024 * 1024,
  delayMs: 75,
  backoff: DEFAULT_BACKOFF,
  resyncPageItems: DEFAULT_PAGED_RESYNC.pageItems,
} as const

/** A resync sent in pages keeps its list and progress while it is tried again: it resumes its session (watch events since wait behind it). */
type PagedJob = { items: object[]; resourceVersion?: string; progress: PagedResyncProgress }
type Job = { kind: 'events'; events: WatchEvent[]; bytes: number } | { kind: 'resync'; started?: true; paged?: PagedJob }

/**
 * Sends to the function in order, one request at a time: watch events in batches bounded in
 * count, bytes and delay, and full resyncs (one larger than `resyncPageItems` as a resync
 * session, in pages, that no watch event overtakes: it waits behind). A failed request is sent again with backoff (and
 * after `Retry-After` on 429 or 503) until it succeeds (a paged resync goes on in its session, with the list it began with); one the function refuses as wrong is
 * logged with its message, narrowed when that helps (a 413 batch is split, the event a 400 names
 * is set aside), and otherwise replaced by a resync so the function still ends up with every object.
 */
export class Delivery {
  private readonly queue: Job[] = []
  private open: Extract<Job, { kind: 'events' }> | undefined
  private timer: NodeJS.Timeout | undefined
  private running: Promise<void> | undefined
  private stopping = false
  private readonly stopped = new AbortController()

  constructor(
    private readonly client: FunctionClient,
    private readonly options: DeliveryOptions,
  ) {}

  /** True while anything is waiting or being sent. */
  get busy(): boolean {
    return this.open !== undefined || this.queue.length > 0
  }

  add(event: WatchEvent): void {
    const bytes = sentBytes(event)
    if (this.open && (this.open.events.length >= this.options.maxEvents || this.open.bytes + bytes > this.options.maxBytes)) this.close()
    if (!this.open) {
      this.open = { kind: 'events', events: [], bytes: 0 }
      this.timer = setTimeout(() => this.close(), this.options.delayMs)
    }
    this.open.events.push(event)
    this.open.bytes += bytes
  }

  /** Sends everything the function should hold, after what is already queued; one resync waiting to be sent covers any later ask. */
  resync(): void {
    this.close()
    this.queueResync()
    this.run()
  }

  /** Sends the open batch now and waits until everything queued is delivered or `timeoutMs` passes (then stops retrying). */
  async drain(timeoutMs: number): Promise<void> {
    this.close()
    let timer: NodeJS.Timeout | undefined
    const deadline = new Promise<void>((resolve) => {
      timer = setTimeout(() => {
        this.stopping = true
        this.stopped.abort()
        resolve()
      }, timeoutMs)
    })
    while (this.running && !this.stopping) await Promise.race([this.running, deadline])
    clearTimeout(timer)
    // Cut short: a restarted forwarder begins a session of its own, so the one under way is given up.
    const unfinished = this.queue.find((job) => job.kind === 'resync' && job.paged?.progress.session)
    if (this.stopping && unfinished?.kind === 'resync') await this.abandon(unfinished)
  }

  /** A resync that has not started yet reads everything when it does: a later ask is covered by it, but not by one already on its way. */
  private queueResync(): void {
    const last = this.queue.at(-1)
    if (last?.kind !== 'resync' || last.started) this.queue.push({ kind: 'resync' })
  }

  private close(): void {
    clearTimeout(this.timer)
    if (this.open) this.queue.push(this.open)
    this.open = undefined
    this.run()
  }

  private run(): void {
    this.running ??= this.sendAll().finally(() => {
      this.running = undefined
      if (this.queue.length > 0 && !this.stopping) this.run()
    })
  }

  private async sendAll(): Promise<void> {
    for (let attempt = 0; this.queue.length > 0 && !this.stopping; ) {
      const job = this.queue[0]!
      const started = Date.now()
      try {
        const result = await this.send(job)
        this.queue.shift()
        attempt = 0
        const what = job.kind === 'resync' ? 'resync' : `${job.events.length} event${job.events.length === 1 ? '' : 's'}`
        this.options.log(
          `${what} → generation ${result.generation} (${result.committed ? 'committed' : 'unchanged'}${result.rejected?.length ? `, ${result.rejected.length} rejected` : ''}${result.warningCount ? `, ${result.warningCount} annotation warnings` : ''}) in ${Date.now() - started} ms`,
        )
        await Promise.resolve(this.options.onCommitted?.(result, what)).catch((error: unknown) =>
          this.options.log(`after ${what}: ${(error as Error).message}`),
        )
      } catch (error) {
        const failure = error instanceof DeliveryError ? error : new DeliveryError(undefined, (error as Error).message)
        if (failure.retryable) {
          const wait = Math.max(retryAfterMs(failure.retryAfter ?? null) ?? 0, backoffDelay(this.options.backoff, attempt++))
          this.options.log(`${failure.message}; sending again in ${wait} ms`)
          await sleep(wait, this.stopped.signal)
        } else await this.refused(job, failure)
      }
    }
  }

  private send(job: Job): Promise<WriteResult> {
    if (job.kind === 'events') return this.client.postEvents(job.events)
    job.started = true
    const pageItems = this.options.resyncPageItems ?? DEFAULT_PAGED_RESYNC.pageItems
    if (!job.paged) {
      const { items, resourceVersion } = this.options.snapshot()
      if (items.length <= pageItems) return this.client.putObjects(items, resourceVersion)
      job.paged = { items, resourceVersion, progress: pagedResyncProgress() }
    }
    const { items, resourceVersion } = job.paged
    const options = {
      ...DEFAULT_PAGED_RESYNC,
      pageItems,
      pageBytes: this.options.maxBytes,
      backoff: this.options.backoff,
      signal: this.stopped.signal,
      log: this.options.log,
      whole: () => this.client.putObjects(items, resourceVersion),
    }
    return sendPagedResync(this.client, items, options, job.paged.progress)
  }

  private async refused(job: Job, failure: DeliveryError): Promise<void> {
    const index = /^events\[(\d+)\]/.exec(failure.path ?? '')?.[1]
    if (job.kind === 'events' && job.events.length > 1 && failure.status === 413) {
      const half = Math.ceil(job.events.length / 2)
      this.options.log(`${failure.message}; splitting the batch of ${job.events.length}`)
      this.queue.splice(0, 1, { kind: 'events', events: job.events.slice(0, half), bytes: 0 }, { kind: 'events', events: job.events.slice(half), bytes: 0 })
    } else if (job.kind === 'events' && job.events.length > 1 && failure.status === 400 && index !== undefined && Number(index) < job.events.length) {
      const [dropped] = job.events.splice(Number(index), 1)
      this.options.log(`${failure.message}; not sending ${describe(dropped!)} again, sending the other ${job.events.length}`)
    } else if (job.kind === 'events') {
      this.queue.shift()
      this.options.log(`${failure.message}; ${job.events.length} event(s) not sent, a resync follows`)
      this.queueResync()
    } else {
      this.queue.shift()
      this.options.log(`${failure.message}; the resync is not sent again until the next one is due`)
      await this.abandon(job)
    }
  }

  /** Deletes the session of a paged resync given up on (best effort: one left behind expires, its pages then collected). */
  private async abandon(job: Extract<Job, { kind: 'resync' }>): Promise<void> {
    const session = job.paged?.progress.session?.id
    if (!session) return
    job.paged!.progress.session = undefined
    await this.client.abandonResync(session).then(
      () => this.options.log(`resync session ${session} abandoned`),
      (error: Error) => this.options.log(`${error.message}; resync session ${session} is left to expire`),
    )
  }
}

function describe(event: WatchEvent): string {
  const metadata = (event.object.metadata ?? {}) as { namespace?: string; name?: string }
  return `${event.type} ${String(event.object.kind)} ${metadata.namespace ? `${metadata.namespace}/` : ''}${metadata.name ?? '?'}`
}
