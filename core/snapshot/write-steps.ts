/** Characters of JSON a step of collecting the snapshot's writes may write out: a tenth of a millisecond or so. */
const STEP_CHARS = 32_768

/** Writes a step may take whatever their size: index members, deletions. */
const STEP_WRITES = 256

/**
 * Groups the pending writes of a keyspace into steps of a sliced computation (runInSlices):
 * a full resync of 20,000 Ingresses has about 140,000, and a step each made about 700 pauses
 * (200 steps a slice) for half a second of JSON; grouped, 100,000 writes take about 60 pauses
 * and 10-15 % less CPU (the stepping; the JSON is the rest).
 */
export class WriteSteps {
  private chars = 0
  private writes = 0

  /** Counts a write of `chars` characters; true when it fills the step, which the next write starts anew. */
  filled(chars: number): boolean {
    this.chars += chars
    if (++this.writes < STEP_WRITES && this.chars < STEP_CHARS) return false
    this.chars = 0
    this.writes = 0
    return true
  }
}
