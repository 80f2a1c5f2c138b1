import type { Pause } from '../../../core/slices.ts'
import { yieldToEventLoop } from '../../../core/yield-to-event-loop.ts'

/** A commit of at most this many events is a small write: a watch event or a forwarder's batch. */
export const FOREGROUND_EVENTS = 100

/**
 * The longest a slice of background work waits for the foreground to end: a steady flow of
 * small requests slows a resync down (to about one slice per this long) but never stops it.
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
 * Who goes first on the one thread a process serves every cluster from. Requests are served in
 * the foreground (a cluster's watch events, an agent's poll); a resync's long work (`PUT
 * …/objects`, a session's pages and finish) runs in slices in the background, and between two
 * slices it waits while anything holds the foreground. A yield alone is not enough: a small
 * write awaits storage a dozen times, from reading its cluster's record to its commit, and each
 * time a background slice would run before it goes on. A request waiting in its cluster's queue
 * does not hold the foreground: a watch event queued behind its own cluster's resync must not
 * hold that resync back.
 */
export class Turns {
  private held = 0

  /**
   * `yieldTurn` lets the rest of the process run once before a slice when nothing holds the
   * foreground: a timer by default (web standard, so every platform has it). A resync takes
   * hundreds, and a timer never fires sooner than 1 ms in Node: the Node server passes one
   * without that floor. (While something holds the foreground, the pause waits by timers, which
   * let the loop idle until that work's own I/O is done.)
   */
  constructor(private readonly yieldTurn: () => Promise<void> = yieldToEventLoop) {}

  /** A request's turn, holding the foreground until it ends, steps into the background or waits aside (see RequestTurn). */
  request(): RequestTurn {
    return new RequestTurn((change) => (this.held += change))
  }

  /** Runs a small write's commit in the foreground: background work waits for it between its slices. */
  async foreground<T>(work: () => Promise<T>): Promise<T> {
    this.held++
    try {
      return await work()
    } finally {
      this.held--
    }
  }

  /** What background work awaits between slices: a turn of the event loop, then until nothing holds the foreground (at most BACKGROUND_WAIT_MS). */
  readonly pause: Pause = async () => {
    await this.yieldTurn()
    for (let waited = 0; this.held > 0 && waited < BACKGROUND_WAIT_MS; waited += BACKGROUND_POLL_MS) {
      await new Promise<void>((resolve) => setTimeout(resolve, BACKGROUND_POLL_MS))
    }
  }
}

/** One request's place in the Turns: it holds the foreground while it is served, but not once in the background, nor while it waits aside. */
export class RequestTurn {
  private holding = true

  /** `hold` counts a hold of the foreground taken (1) or given back (-1). */
  constructor(private readonly hold: (change: 1 | -1) => void) {
    hold(1)
  }

  /** The rest of the request is background work (a resync): from here on it waits for the foreground between its slices. */
  background(): void {
    this.release()
  }

  /** Awaits `work` without holding the foreground (a request waiting in its cluster's queue, whose commit takes its own turn), then holds it again if it did. */
  async aside<T>(work: () => Promise<T>): Promise<T> {
    const held = this.holding
    this.release()
    try {
      return await work()
    } finally {
      if (held) {
        this.holding = true
        this.hold(1)
      }
    }
  }

  /** The request was answered. */
  end(): void {
    this.release()
  }

  private release(): void {
    if (!this.holding) return
    this.holding = false
    this.hold(-1)
  }
}
