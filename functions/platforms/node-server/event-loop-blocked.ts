import type { Gauge } from '../../app/services/metrics.ts'

/** How often the event loop is looked at: a stretch shorter than this may be missed, a longer one is seen to within this. */
const RESOLUTION_MS = 10

/**
 * The longest the event loop was blocked since /metrics was last read: one thread serves every
 * cluster, so this is how long any cluster's request may have waited for another's work (a
 * resync's slice, a commit). A timer every RESOLUTION_MS ms measures how late it comes, in wall
 * time (`clock="wall"`, what a request waited) and in the CPU time the process spent meanwhile
 * (`clock="cpu"`, the lesser of the two: on a machine whose cores others share, the wall time of
 * a stretch grows with the load, its CPU time does not). The CPU time is the whole process's,
 * the collector's and file threads' included, so it can only overstate the stretch. Each read
 * starts a new window.
 */
export function eventLoopBlocked(): Gauge {
  let wallMax = 0
  let cpuMax = 0
  let lastWall = performance.now()
  let lastCpu = cpuMs()
  const timer = setInterval(() => {
    const [wall, cpu] = [performance.now(), cpuMs()]
    const late = Math.max(0, wall - lastWall - RESOLUTION_MS)
    wallMax = Math.max(wallMax, late)
    cpuMax = Math.max(cpuMax, Math.min(late, cpu - lastCpu))
    lastWall = wall
    lastCpu = cpu
  }, RESOLUTION_MS)
  // It only measures: it must not keep a server that is stopping alive.
  timer.unref()
  return {
    name: 'hapedge_event_loop_blocked_max_seconds',
    help: `The longest the event loop was blocked since /metrics was last read (how late a timer every ${RESOLUTION_MS} ms came), in wall time and in the CPU time spent meanwhile.`,
    read: () => {
      const values = [
        { labels: { clock: 'wall' }, value: wallMax / 1000 },
        { labels: { clock: 'cpu' }, value: cpuMax / 1000 },
      ]
      wallMax = 0
      cpuMax = 0
      return values
    },
  }
}

/** The CPU time (user and system) this process has used, in ms. */
function cpuMs(): number {
  const { user, system } = process.cpuUsage()
  return (user + system) / 1000
}
