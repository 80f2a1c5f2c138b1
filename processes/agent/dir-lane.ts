/** Per directory, the tail of the work queued on it. */
const lanes = new Map<string, Promise<unknown>>()

/**
 * Runs `work` once the work queued before it on `dir` has settled, so that two steps that
 * touch the same generation directory (a staging and a pruning) never interleave in this process.
 */
export function inLane<T>(dir: string, work: () => Promise<T>): Promise<T> {
  const before = lanes.get(dir) ?? Promise.resolve()
  const run = before.then(work, work)
  const tail = run.catch(() => undefined)
  lanes.set(dir, tail)
  void tail.then(() => {
    if (lanes.get(dir) === tail) lanes.delete(dir)
  })
  return run
}
