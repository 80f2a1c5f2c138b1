import { readFile } from 'node:fs/promises'
import { describe, expect, it } from 'vitest'
import { runInSlices } from '../../../../core/slices.ts'
import { Turns } from '../../../../functions/app/services/turns.ts'
import { nodeTurn } from '../../../../functions/platforms/node-server/node-turn.ts'

/** Steps until `done()` says so (true), or `limit` steps (false): a computation that would hold the thread for seconds. */
function* until(done: () => boolean, limit: number): Generator<void, boolean> {
  for (let step = 0; step < limit; step++) {
    if (done()) return true
    yield
  }
  return false
}

describe("the Node server's turn between slices", () => {
  it('lets I/O begun before a long computation finish while it runs', async () => {
    let read = false
    const reading = readFile(new URL(import.meta.url)).then(() => (read = true))
    // Paused on microtasks alone, the read would finish only after the last step.
    expect(
      await runInSlices(
        until(() => read, 50_000_000),
        new Turns(nodeTurn).pause,
      ),
    ).toBe(true)
    await reading
  })
})
