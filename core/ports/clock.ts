/** Time and chance, as a port: tests pass a clock that does not wait and a seeded random. */
export interface Clock {
  now(): Date
  sleep(ms: number): Promise<void>
  /** A number in [0, 1), for jitter. */
  random(): number
}

export const systemClock: Clock = {
  now: () => new Date(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  random: () => Math.random(),
}
