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
 * How often a paused slice of background work looks whether the foreground is free. It looks by
 * its own timer: a foreground write that woke it would run its continuation, and its storage
 * calls, as part of the write's request, which a Worker refuses ("Cannot perform I/O on behalf
 * of a different request") or cancels when that request ends, leaving the resync hung.
 */
export const BACKGROUND_POLL_MS = 5

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

  /** Runs a small write's commit in the foreground: background work waits for it between its slices. */
  async foreground<T>(work: () => Promise<T>): Promise<T> {
    this.running++
    try {
      return await work()
    } finally {
      this.running--
    }
  }

  /** What background work awaits between slices: a turn of the event loop, then until no foreground commit runs (at most BACKGROUND_WAIT_MS). */
  readonly pause: Pause = async () => {
    await yieldToEventLoop()
    for (let waited = 0; this.running > 0 && waited < BACKGROUND_WAIT_MS; waited += BACKGROUND_POLL_MS) {
      await new Promise<void>((resolve) => setTimeout(resolve, BACKGROUND_POLL_MS))
    }
  }
}
