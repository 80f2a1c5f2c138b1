import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { cpuSeconds } from './serve-meter.ts'

/**
 * The processes of the group `pgid` named `name` (a process started detached, and the children it
 * started, such as wrangler's workerd), from /proc: Linux only, none elsewhere.
 */
export function groupProcesses(pgid: number, name: string): number[] {
  const found: number[] = []
  let entries: string[] = []
  try {
    entries = readdirSync('/proc').filter((entry) => /^\d+$/.test(entry))
  } catch {
    return found
  }
  for (const entry of entries) {
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
      // `pid (comm) state ppid pgrp …`: the command name may hold spaces, so read around its parentheses.
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'))
      const group = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2])
      if (group === pgid && comm === name) found.push(Number(entry))
    } catch {
      // ended meanwhile
    }
  }
  return found
}

/** The CPU seconds (user + system) the processes `pids` have used, together. */
export const totalCpuSeconds = (pids: readonly number[]) => pids.reduce((sum, pid) => sum + cpuSeconds(pid), 0)

/**
 * The largest resident set of any of `pids` since their last resetPeakRss, in MB (VmHWM of
 * /proc/PID/status): what the process held at most, its runtime and every isolate together.
 */
export function peakRssMb(pids: readonly number[]): number {
  const peaks = pids.flatMap((pid) => {
    try {
      return [Number(/^VmHWM:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) / 1024]
    } catch {
      return [] // ended meanwhile
    }
  })
  return peaks.length > 0 ? Math.max(...peaks) : Number.NaN
}

/** Starts a new peak for peakRssMb (writing 5 to /proc/PID/clear_refs); where that is refused, the peak counts from the process's start. */
export function resetPeakRss(pids: readonly number[]): void {
  for (const pid of pids) {
    try {
      writeFileSync(`/proc/${pid}/clear_refs`, '5')
    } catch {
      // not ours, or not Linux
    }
  }
}
