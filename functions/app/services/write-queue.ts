import type { WatchEvent } from '../../../core/incremental/watch-event.ts'
import { namedObjects, type IngestResult } from '../../../core/ingest/ingest.ts'
import { capWarnings } from '../../../core/ingest/write-warnings.ts'

interface Waiting<C> {
  events: readonly WatchEvent[]
  context: C
  /** Set by the request that committed this one's group: data, never a promise resolved across requests. */
  outcome?: { result: IngestResult } | { error: unknown }
}

/** How long a waiting request sleeps between looks at the queue, doubling from the first up to the last (ms). */
const FIRST_LOOK_MS = 1
const LONGEST_LOOK_MS = 4

/**
 * One cluster's writes from this process, one commit at a time: requests that arrive while a
 * commit runs wait, and are then committed together (group commit), so a burst on one cluster
 * costs a few commits instead of many writers racing for HEAD. Each request hears of the
 * generation that holds its events and of the rejections that name its own objects. A group
 * commits in the context of its last request (the cluster's settings as most recently read).
 *
 * Every request does its own I/O: the request at the head of the queue commits its group itself,
 * and the others look by their own timers for their outcome or their turn. A Worker refuses
 * storage calls made on behalf of another request, and cancels a request whose work was left
 * to a request that has ended; a queue drained by its first request hung every other one. The
 * timers also let the event loop run between two groups, so one cluster's backlog does not hold
 * the thread from the others.
 */
export class WriteQueue<C = unknown> {
  private waiting: Waiting<C>[] = []
  private running = false

  constructor(
    /** `alone`: the group is one request's, so its context may ask what concerns that request alone. The answer's rejections and warnings are the events' objects' only (ingest's). */
    private readonly commit: (events: readonly WatchEvent[], context: C, alone: boolean) => Promise<IngestResult>,
    private readonly maxEvents: number,
    private readonly idle: () => void,
  ) {}

  async submit(events: readonly WatchEvent[], context: C): Promise<IngestResult> {
    const request: Waiting<C> = { events, context }
    this.waiting.push(request)
    for (let look = FIRST_LOOK_MS; !request.outcome; look = Math.min(look * 2, LONGEST_LOOK_MS)) {
      if (!this.running && this.waiting[0] === request) await this.commitGroup()
      else await new Promise<void>((resolve) => setTimeout(resolve, look))
    }
    if ('error' in request.outcome) throw request.outcome.error
    return request.outcome.result
  }

  /** Commits the group at the head of the queue, in the calling request. */
  private async commitGroup(): Promise<void> {
    this.running = true
    const group = this.takeGroup()
    try {
      const result = await this.commit(
        group.flatMap((request) => request.events),
        group[group.length - 1]!.context,
        group.length === 1,
      )
      for (const request of group) {
        // A request committed alone was answered for its own objects already: a resync's are 40,000, each read again to be named.
        const named = group.length > 1 ? namedObjects(request.events) : undefined
        const own = <T extends { object: string }>(items: T[]): T[] => (named ? items.filter((item) => named.has(item.object)) : items)
        request.outcome = { result: { ...result, rejected: own(result.rejected), ...capWarnings(own(result.warnings)) } }
      }
    } catch (error) {
      for (const request of group) request.outcome = { error }
    } finally {
      this.running = false
      if (this.waiting.length === 0) this.idle()
    }
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
