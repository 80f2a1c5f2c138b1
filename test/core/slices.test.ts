import { describe, expect, it } from 'vitest'
import { runInSlices, runToEnd, SLICE_STEPS } from '../../core/slices.ts'

/** A computation of `steps` steps that says where it is: the log shows what ran between them. */
function* counting(steps: number, log: string[]): Generator<void, number> {
  let sum = 0
  for (let step = 0; step < steps; step++) {
    sum += step
    log.push('step')
    yield
  }
  return sum
}

describe('a long computation run in slices', () => {
  it('pauses at least every SLICE_STEPS steps and ends with what it would compute at once', async () => {
    const log: string[] = []
    const steps = SLICE_STEPS * 3
    const result = await runInSlices(counting(steps, log), async () => {
      log.push('pause')
    })
    expect(result).toBe(runToEnd(counting(steps, [])))
    expect(log.filter((entry) => entry === 'step')).toHaveLength(steps)
    const runs = log
      .join(' ')
      .split('pause')
      .map((run) => run.trim().split(' ').filter(Boolean).length)
    expect(runs.length).toBeGreaterThanOrEqual(3)
    expect(Math.max(...runs)).toBeLessThanOrEqual(SLICE_STEPS)
  })

  it('lets a timer set before it run before it ends, with the default pause (a turn of the event loop)', async () => {
    const log: string[] = []
    setTimeout(() => log.push('timer'), 0)
    await runInSlices(counting(SLICE_STEPS * 2, log))
    expect(log.indexOf('timer')).toBeGreaterThan(0)
    expect(log.indexOf('timer')).toBeLessThan(log.length - 1)
  })
})
