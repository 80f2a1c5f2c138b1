import { afterEach, describe, expect, it, vi } from 'vitest'
import { BACKGROUND_WAIT_MS, Turns } from '../../../../functions/app/services/turns.ts'

/** A foreground commit that awaits storage a few times (each a turn of the event loop), logging its steps. */
async function smallWrite(log: string[], steps = 3): Promise<void> {
  for (let step = 1; step <= steps; step++) {
    await new Promise((resolve) => setTimeout(resolve, 0))
    log.push(`write step ${step}`)
  }
}

afterEach(() => {
  vi.useRealTimers()
})

describe('Turns', () => {
  it('holds background work between its slices while a small write commits, so the write does not wait a slice per await', async () => {
    const turns = new Turns()
    const log: string[] = []
    const write = turns.foreground(() => smallWrite(log))
    await turns.pause()
    log.push('background slice')
    await write
    expect(log).toEqual(['write step 1', 'write step 2', 'write step 3', 'background slice'])
  })

  it('lets background work go on after a turn of the event loop when nothing is in the foreground', async () => {
    const turns = new Turns()
    const log: string[] = []
    setTimeout(() => log.push('timer'), 0)
    await turns.pause()
    log.push('background slice')
    expect(log).toEqual(['timer', 'background slice'])
  })

  it('takes the turn its platform gives before each slice', async () => {
    const log: string[] = []
    const turns = new Turns(async () => void log.push('turn'))
    await turns.pause()
    log.push('background slice')
    expect(log).toEqual(['turn', 'background slice'])
  })

  it('holds background work while a request is served, from its first step to its answer, not only while it commits', async () => {
    const turns = new Turns()
    const log: string[] = []
    const turn = turns.request()
    const served = smallWrite(log).then(() => turn.end())
    await turns.pause()
    log.push('background slice')
    await served
    expect(log).toEqual(['write step 1', 'write step 2', 'write step 3', 'background slice'])
  })

  it('does not hold background work for a request that stepped into the background (a resync) or waits aside (in its cluster’s queue)', async () => {
    const turns = new Turns()
    const log: string[] = []
    const resync = turns.request()
    resync.background()
    const queued = turns.request()
    let leave = () => {}
    const waiting = queued.aside(() => new Promise<void>((resolve) => (leave = resolve)))
    const paused = turns.pause().then(() => log.push('background slice'))
    setTimeout(() => {
      log.push('its queue moved')
      leave()
    }, 0)
    await Promise.all([paused, waiting])
    // Its wait over, the queued request holds the foreground again until it is answered.
    const answered = smallWrite(log).then(() => queued.end())
    await turns.pause()
    log.push('background slice')
    await answered
    resync.end()
    expect(log).toEqual(['background slice', 'its queue moved', 'write step 1', 'write step 2', 'write step 3', 'background slice'])
  })

  it('holds background work at most BACKGROUND_WAIT_MS: small writes that never stop slow a resync down, they do not stop it', async () => {
    vi.useFakeTimers()
    const turns = new Turns()
    let release = () => {}
    const endless = turns.foreground(() => new Promise<void>((resolve) => (release = resolve)))
    let resumed = false
    const paused = turns.pause().then(() => (resumed = true))
    await vi.advanceTimersByTimeAsync(BACKGROUND_WAIT_MS - 1)
    expect(resumed).toBe(false)
    await vi.advanceTimersByTimeAsync(1)
    await paused
    expect(resumed).toBe(true)
    release()
    await endless
  })

  it('wakes background work by its own timer, never from the end of a foreground write: a Worker would run it, and its storage calls, as part of the write’s request', async () => {
    const turns = new Turns()
    let release = () => {}
    const write = turns.foreground(() => new Promise<void>((resolve) => (release = resolve)))
    let resumed = false
    const paused = turns.pause().then(() => (resumed = true))
    // The pause has looked once (a turn of the event loop) and found the write in the foreground.
    await new Promise((resolve) => setTimeout(resolve, 0))
    release()
    await write
    // Only microtasks since the write ended: nothing the write did resumed the pause.
    for (let microtask = 0; microtask < 20; microtask++) await Promise.resolve()
    expect(resumed).toBe(false)
    await paused
    expect(resumed).toBe(true)
  })
})
