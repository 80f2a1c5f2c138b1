import type { Pause } from '../../../core/slices.ts'
import { yieldToEventLoop } from '../../../core/yield-to-event-loop.ts'

/** A commit of at most this many events is a small write: a watch event or a forwarder's batch. */
export const FOREGROUND_EVENTS = 100

/**
 * The longest a slice of background work waits for small writes to end: a steady flow of them
 * slows a resync down (to about one slice per this long) but never stops it.
 */
export const BACKGROUND_WAIT_MS = 50

/**
 * Who goes first on the one thread a process serves every cluster from. Small writes (a
 * cluster's watch events) run in the foreground; a resync's long work (`PUT …/objects`, a
 * session's pages and finish) runs in slices in the background, and between two slices it
 * waits while any foreground commit is in progress. A yield alone is not enough: a small write
 * awaits storage a dozen times, and each time a background slice would run before it goes on.
 * Only commits count as foreground, not a request waiting in its cluster's queue: a watch event
 * queued behind its own cluster's resync must not hold that resync back.
 */
export class Turns {
  private running = 0
  private readonly waiting = new Set<() => void>()

  /** Runs a small write's commit in the foreground: background work waits for it between its slices. */
  async foreground<T>(work: () => Promise<T>): Promise<T> {
    this.running++
    try {
      return await work()
    } finally {
      if (--this.running === 0) for (const wake of this.waiting) wake()
    }
  }

  /** What background work awaits between slices: a turn of the event loop, then until no foreground commit runs (at most BACKGROUND_WAIT_MS). */
  readonly pause: Pause = async () => {
    await yieldToEventLoop()
    if (this.running === 0) return
    await new Promise<void>((resolve) => {
      const wake = () => {
        clearTimeout(timer)
        this.waiting.delete(wake)
        resolve()
      }
      const timer = setTimeout(wake, BACKGROUND_WAIT_MS)
      this.waiting.add(wake)
    })
  }
}
