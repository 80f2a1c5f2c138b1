import { yieldToEventLoop } from './yield-to-event-loop.ts'

/** What a long computation awaits between its slices, so that the rest of the process runs meanwhile. */
export type Pause = () => Promise<void>

/**
 * How long one slice of a long computation may hold the thread: other clusters' one-event
 * writes on the same thread wait at most about this long for each of their own steps.
 */
export const SLICE_MS = 8

/**
 * Steps per slice whatever the clock says: a Worker's clock stands still while it computes
 * (so a slice measured in time would never end there), and a step is well under a millisecond.
 */
export const SLICE_STEPS = 200

/**
 * Runs a computation written as a generator that yields after each small step, to its end:
 * whenever a slice has held the thread for `SLICE_MS` (or `SLICE_STEPS` steps), it awaits
 * `pause` before the next step. The computation itself stays synchronous between two pauses,
 * so what it reads and builds is its own: pausing changes when it runs, not what it computes.
 */
export async function runInSlices<T>(steps: Iterator<void, T>, pause: Pause = yieldToEventLoop): Promise<T> {
  let began = performance.now()
  let taken = 0
  for (;;) {
    const step = steps.next()
    if (step.done) return step.value
    if (++taken >= SLICE_STEPS || performance.now() - began >= SLICE_MS) {
      await pause()
      began = performance.now()
      taken = 0
    }
  }
}

/** Runs a computation written as a generator of steps to its end at once, with no pause: what synchronous callers use. */
export function runToEnd<T>(steps: Iterator<void, T>): T {
  for (;;) {
    const step = steps.next()
    if (step.done) return step.value
  }
}

/** Runs a computation in slices when given a pause (background work), else to its end at once (a small write's, in the foreground). */
export function runSteps<T>(steps: Iterator<void, T>, pause?: Pause): Promise<T> {
  return pause ? runInSlices(steps, pause) : Promise.resolve(runToEnd(steps))
}
