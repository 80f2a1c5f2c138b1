import { describe, expect, it } from 'vitest'
import { Metrics } from '../../../../functions/app/services/metrics.ts'
import { eventLoopBlocked } from '../../../../functions/platforms/node-server/event-loop-blocked.ts'

const turn = (ms = 0) => new Promise((resolve) => setTimeout(resolve, ms))

/** Holds the thread for `ms`, as a long synchronous stretch of work would. */
function block(ms: number): void {
  const until = performance.now() + ms
  while (performance.now() < until) {}
}

describe('eventLoopBlocked', () => {
  it('shows in /metrics the longest stretch the event loop was held since the last read, counted from the last read', async () => {
    const gauge = eventLoopBlocked()
    const metrics = new Metrics([gauge])
    await turn(30)
    metrics.render({ perCluster: false })
    await turn(30)
    block(120)
    await turn(30)
    const value = (text: string, clock: string) =>
      Number(new RegExp(`^hapedge_event_loop_blocked_max_seconds\\{clock="${clock}"\\} (\\S+)$`, 'm').exec(text)?.[1])
    const text = metrics.render({ perCluster: false })
    expect(text).toContain('# TYPE hapedge_event_loop_blocked_max_seconds gauge')
    // Lower bounds, which a loaded machine only raises: the stretch less the sampler's resolution. The thread spun meanwhile, so its CPU time shows the stretch too.
    expect(value(text, 'wall')).toBeGreaterThanOrEqual(0.11)
    expect(value(text, 'cpu')).toBeGreaterThan(0)
  })
})
